import { z } from 'zod';

import type { CountResult } from '../../operations/count';
import type { SchemaCollection } from '../../schema/schema-json';
import type { ReadRequest, RecordsAnswer, RecordsFilter } from '../agent-operations';
import { toolRefusal } from '../tool-refusal';
import { toolRecords } from './json-api-records';
import {
  type ToolContext,
  ToolError,
  findCollection,
  findToManyRelation,
  packId,
  targetOf,
  schemaFieldNames,
} from './tool-context';
import { defineTool } from './tool-definition';
import {
  collectionNameInput,
  readInputs,
  recordIdInput,
  type ToolConditionTree,
  toWireTree,
} from './tool-inputs';

type ReadInput = {
  search?: string;
  filters?: ToolConditionTree;
  sort?: { field: string; ascending: boolean };
  shouldSearchInRelation: boolean;
  fields?: string[];
  pagination?: { size: number; number: number };
  enableCount: boolean;
};

/** The read (agent-http-protocol §6) a tool's reading options ask for. */
function readRequest(input: ReadInput): ReadRequest {
  return {
    search: input.search,
    searchExtended: input.search ? input.shouldSearchInRelation : undefined,
    filters: input.filters ? toWireTree(input.filters) : undefined,
    sort: input.sort,
    page: input.pagination ?? { size: 15, number: 1 },
    projection: input.fields && input.fields.length > 0 ? projection(input.fields) : undefined,
  };
}

/** `fields`: names of the collection, `relation@@@field` for a field of a to-one relation. */
function projection(fields: readonly string[]): NonNullable<ReadRequest['projection']> {
  const top = new Set<string>();
  const relationFields = new Map<string, string[]>();
  for (const field of fields) {
    const [relation, sub] = field.split('@@@') as [string, string | undefined];
    top.add(relation);
    if (sub !== undefined)
      relationFields.set(relation, [...(relationFields.get(relation) ?? []), sub]);
  }
  return { fields: [...top], relationFields };
}

/** Appends the sortable fields to "sort" errors so the model can pick a valid one. */
function sortHint(collection: SchemaCollection) {
  return (detail: string) =>
    /sort/i.test(detail)
      ? `Sortable fields of "${collection.name}": ${collection.fields
          .filter((field) => field.isSortable && field.relationship === undefined)
          .map((field) => field.field)
          .join(', ')}.`
      : '';
}

/** Reads a page and, with `count`, the total, through `read` and `total` (list or related). */
async function readPage(
  context: ToolContext,
  read: (request: ReadRequest) => Promise<RecordsAnswer>,
  total: (filter: RecordsFilter) => Promise<CountResult>,
  request: ReadRequest,
  collection: SchemaCollection,
  count: boolean,
) {
  let answer: RecordsAnswer;
  try {
    answer = await read(request);
  } catch (error) {
    const refusal = toolRefusal(error, sortHint(collection));
    throw refusal === null ? error : new ToolError(refusal);
  }
  const records = toolRecords(answer, schemaFieldNames(context));
  if (!count) return { records };
  const counted = await total(request);
  return { records, totalCount: 'count' in counted ? counted.count : counted.meta.count };
}

/** `list`: a page of a collection's records, with optional total (platform protocol §16.6). */
export const listTool = defineTool({
  name: 'list',
  description:
    'List records of a collection, with optional search, filters, sort, field selection and ' +
    'pagination (15 per page by default, at most 100). Set enableCount to get totalCount.',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:read',
  input: (names) => ({ collectionName: collectionNameInput(names), ...readInputs }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    return readPage(
      context,
      (request) => context.agent.list(collection.name, request),
      (filter) => context.agent.count(collection.name, filter),
      readRequest(input as ReadInput),
      collection,
      input.enableCount,
    );
  },
});

/** `listRelated`: a page of the records linked to one record through a to-many relation. */
export const listRelatedTool = defineTool({
  name: 'listRelated',
  description:
    'List the records linked to one record through a to-many relation (e.g. the orders of a ' +
    'customer), with the same options as list.',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:read',
  input: (names) => ({
    collectionName: collectionNameInput(names),
    relationName: z.string().min(1).describe('A to-many relation of the collection'),
    parentRecordId: recordIdInput,
    ...readInputs,
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const relation = findToManyRelation(collection, input.relationName);
    const target = findCollection(context, targetOf(relation));
    const parentId = packId(input.parentRecordId);
    return readPage(
      context,
      (request) => context.agent.listRelated(collection.name, parentId, relation.field, request),
      (filter) => context.agent.countRelated(collection.name, parentId, relation.field, filter),
      readRequest(input as ReadInput),
      target,
      input.enableCount,
    );
  },
});
