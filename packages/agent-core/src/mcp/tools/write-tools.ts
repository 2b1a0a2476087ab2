import { z } from 'zod';

import type { SchemaCollection } from '../../schema/schema-json';
import { recordsFromDocument } from './json-api-records';
import {
  ToolError,
  expectSuccess,
  findCollection,
  packId,
  schemaFieldNames,
  targetOf,
} from './tool-context';
import { defineTool } from './tool-definition';
import { collectionNameInput, recordIdInput, valuesInput } from './tool-inputs';

/**
 * The JSON:API resource of a write: column values as attributes, to-one relations (given as the
 * target's id) as relationships. To-many relations are refused: `associate` links them.
 */
function resource(collection: SchemaCollection, values: Record<string, unknown>, id?: string) {
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, unknown> = {};
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
    if (field.relationship) {
      relationships[name] = {
        data: value === null ? null : { type: targetOf(field), id: String(value) },
      };
    } else {
      attributes[name] = value;
    }
  }
  return {
    data: {
      type: collection.name,
      ...(id === undefined ? {} : { id }),
      attributes,
      ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
    },
  };
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
      resource(collection, input.attributes),
    );
    return {
      record: recordsFromDocument(expectSuccess(answer), schemaFieldNames(context))[0] ?? null,
    };
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
      resource(collection, input.attributes, id),
    );
    return {
      record: recordsFromDocument(expectSuccess(answer), schemaFieldNames(context))[0] ?? null,
    };
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
    const answer = await context.agent.delete(collection.name, {
      data: {
        type: 'action-requests',
        attributes: {
          collection_name: collection.name,
          ids,
          all_records: false,
          all_records_ids_excluded: [],
        },
      },
    });
    expectSuccess(answer);
    return { deletedCount: ids.length };
  },
});
