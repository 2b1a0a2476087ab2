import { z } from 'zod';

import type { SchemaCollection } from '../../schema/schema-json';
import type { AgentAnswer, ReadQuery } from '../agent-operations';
import { recordsFromDocument } from './json-api-records';
import {
  type ToolContext,
  expectSuccess,
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

/** The query string of a read (agent-http-protocol §6) from a tool's reading options. */
function readQuery(collection: string, input: ReadInput): ReadQuery {
  const pagination = input.pagination ?? { size: 15, number: 1 };
  const query: ReadQuery = {
    timezone: 'UTC',
    'page[size]': String(pagination.size),
    'page[number]': String(pagination.number),
    search: input.search,
    searchExtended: input.search ? String(input.shouldSearchInRelation) : undefined,
    filters: input.filters ? JSON.stringify(toWireTree(input.filters)) : undefined,
    sort: input.sort ? `${input.sort.ascending ? '' : '-'}${input.sort.field}` : undefined,
  };
  if (input.fields) {
    const top = new Set<string>();
    const nested = new Map<string, string[]>();
    for (const field of input.fields) {
      const [relation, sub] = field.split('@@@') as [string, string | undefined];
      top.add(relation);
      if (sub !== undefined) nested.set(relation, [...(nested.get(relation) ?? []), sub]);
    }
    query[`fields[${collection}]`] = [...top].join(',');
    for (const [relation, subs] of nested) query[`fields[${relation}]`] = subs.join(',');
  }
  return query;
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
  read: (query: ReadQuery) => Promise<AgentAnswer>,
  total: (query: ReadQuery) => Promise<AgentAnswer>,
  query: ReadQuery,
  collection: SchemaCollection,
  count: boolean,
) {
  const answer = await read(query);
  const records = recordsFromDocument(
    expectSuccess(answer, sortHint(collection)),
    schemaFieldNames(context),
  );
  if (!count) return { records };
  const countQuery = {
    ...query,
    'page[size]': undefined,
    'page[number]': undefined,
    sort: undefined,
  };
  const counted = expectSuccess(await total(countQuery)) as {
    count?: number;
    meta?: { count?: unknown };
  };
  return { records, totalCount: counted.count ?? counted.meta?.count ?? null };
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
      (query) => context.agent.list(collection.name, query),
      (query) => context.agent.count(collection.name, query),
      readQuery(collection.name, input as ReadInput),
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
      (query) => context.agent.listRelated(collection.name, parentId, relation.field, query),
      (query) => context.agent.countRelated(collection.name, parentId, relation.field, query),
      readQuery(target.name, input as ReadInput),
      target,
      input.enableCount,
    );
  },
});
