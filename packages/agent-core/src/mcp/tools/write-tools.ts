import { z } from 'zod';

import type { SchemaCollection } from '../../schema/schema-json';
import type { RecordValues } from '../agent-operations';
import { toolRecords } from './json-api-records';
import { ToolError, findCollection, packId, schemaFieldNames } from './tool-context';
import { defineTool } from './tool-definition';
import { collectionNameInput, recordIdInput, valuesInput } from './tool-inputs';

/**
 * The record of a write: column values, and to-one relations (given as the target's id) as
 * links. To-many relations are refused: `associate` links them.
 */
function recordValues(collection: SchemaCollection, values: Record<string, unknown>): RecordValues {
  const attributes: Record<string, unknown> = {};
  const links = new Map<string, string | null>();
  for (const [name, value] of Object.entries(values)) {
    const field = collection.fields.find((candidate) => candidate.field === name);
    if (!field) {
      throw new ToolError(
        `Unknown field "${name}" on "${collection.name}". Fields: ${collection.fields
          .map((candidate) => candidate.field)
          .join(', ')}.`,
      );
    }
    if (field.relationship === 'HasMany' || field.relationship === 'BelongsToMany') {
      throw new ToolError(
        `"${name}" is a to-many relation of "${collection.name}": use the associate tool to link records.`,
      );
    }
    if (field.relationship) links.set(name, value === null ? null : String(value));
    else attributes[name] = value;
  }
  return { values: attributes, links };
}

/** `create`: creates one record. */
export const createTool = defineTool({
  name: 'create',
  description:
    'Create a record. attributes maps field names to values; a to-one relation takes the id of ' +
    'the linked record.',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  scope: 'mcp:write',
  input: (names) => ({
    collectionName: collectionNameInput(names),
    attributes: valuesInput('attributes').describe('Field values of the new record'),
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const answer = await context.agent.create(
      collection.name,
      recordValues(collection, input.attributes),
    );
    return { record: toolRecords(answer, schemaFieldNames(context))[0] ?? null };
  },
});

/** `update`: updates one record. */
export const updateTool = defineTool({
  name: 'update',
  description: 'Update the given fields of one record (other fields are left unchanged).',
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:write',
  input: (names) => ({
    collectionName: collectionNameInput(names),
    recordId: recordIdInput,
    attributes: valuesInput('attributes').describe('Field values to change'),
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const id = packId(input.recordId);
    const answer = await context.agent.update(
      collection.name,
      id,
      recordValues(collection, input.attributes),
    );
    return { record: toolRecords(answer, schemaFieldNames(context))[0] ?? null };
  },
});

/** `delete`: deletes records by id. */
export const deleteTool = defineTool({
  name: 'delete',
  description: 'Delete records of a collection by id.',
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:write',
  input: (names) => ({
    collectionName: collectionNameInput(names),
    recordIds: z.array(recordIdInput).min(1).max(100).describe('Ids of the records to delete'),
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const ids = input.recordIds.map(packId);
    await context.agent.delete(collection.name, ids);
    return { deletedCount: ids.length };
  },
});
