import { z } from 'zod';

import { findCollection, findToManyRelation, packId } from './tool-context';
import { defineTool } from './tool-definition';
import { collectionNameInput, recordIdInput } from './tool-inputs';

const relationInputs = (names: readonly string[]) => ({
  collectionName: collectionNameInput(names),
  relationName: z.string().min(1).describe('A to-many relation of the collection'),
  parentRecordId: recordIdInput,
});

/** `associate`: links one record to a parent through a to-many relation. */
export const associateTool = defineTool({
  name: 'associate',
  description: 'Link an existing record to a parent record through a to-many relation.',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:write',
  input: (names) => ({ ...relationInputs(names), targetRecordId: recordIdInput }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const relation = findToManyRelation(collection, input.relationName);
    const target = packId(input.targetRecordId);
    await context.agent.associate(
      collection.name,
      packId(input.parentRecordId),
      relation.field,
      target,
    );
    return {
      success: true,
      message: `Record ${target} is now linked to "${relation.field}" of ${collection.name} ${packId(input.parentRecordId)}.`,
    };
  },
});

/** `dissociate`: unlinks records from a parent (the records themselves stay). */
export const dissociateTool = defineTool({
  name: 'dissociate',
  description:
    'Unlink records from a parent record through a to-many relation (not deleting them).',
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:write',
  input: (names) => ({
    ...relationInputs(names),
    targetRecordIds: z.array(recordIdInput).min(1).max(100),
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const relation = findToManyRelation(collection, input.relationName);
    const ids = input.targetRecordIds.map(packId);
    await context.agent.dissociate(
      collection.name,
      packId(input.parentRecordId),
      relation.field,
      ids,
    );
    return {
      success: true,
      message: `${ids.length} record(s) unlinked from "${relation.field}" of ${collection.name} ${packId(input.parentRecordId)}.`,
    };
  },
});
