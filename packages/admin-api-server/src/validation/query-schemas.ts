import type { JsonSchema } from './ajv';
import { ID_SCHEMA } from './input-rules';

/** The five comparison suffixes of date filters. */
export const DATE_OPERATORS = ['eq', 'lt', 'lte', 'gt', 'gte'] as const;
/** One comparison of a date filter. */
export type DateOperator = (typeof DATE_OPERATORS)[number];
/** Parsed date filters of one field. */
export type DateFilter = Partial<Record<DateOperator, string>>;

const DATE_DESCRIPTIONS: Record<DateOperator, string> = {
  eq: 'Equal to this instant',
  lt: 'Strictly before this instant (exclusive upper bound)',
  lte: 'At or before this instant (inclusive upper bound)',
  gt: 'Strictly after this instant (exclusive lower bound)',
  gte: 'At or after this instant (inclusive lower bound)',
};

/** `<field>.eq|lt|lte|gt|gte` properties, each an ISO 8601 date-time. */
export function dateFilterProperties(field: string): Record<string, JsonSchema> {
  return Object.fromEntries(
    DATE_OPERATORS.map((operator) => [
      `${field}.${operator}`,
      { type: 'string', format: 'date-time', description: DATE_DESCRIPTIONS[operator] },
    ]),
  );
}

/** Reads the date filters of `field` out of a parsed query. */
export function dateFilterOf(query: Record<string, unknown>, field: string): DateFilter {
  const filter: DateFilter = {};
  for (const operator of DATE_OPERATORS) {
    const value = query[`${field}.${operator}`];
    if (typeof value === 'string') filter[operator] = value;
  }
  return filter;
}

/** `limit`: 1 to 100, default 10 (the contract's `exclusiveMinimum` is read as the text says). */
export const LIMIT_PROPERTY: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  default: 10,
  description:
    'Number of items to return, 1 to 100 inclusive. The published contract pairs `minimum: 1` with `exclusiveMinimum: true` while its text says "between 1 and 100"; the text wins, so `limit=1` is accepted.',
};

/** The opaque pagination cursor returned as `nextCursor`. */
export const CURSOR_PROPERTY: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'The `nextCursor` of the previous page. Lossless: no item is skipped or repeated, even when several share a timestamp.',
};

/** `userEmail`, `userId` filters. */
export const USER_FILTER_PROPERTIES: Record<string, JsonSchema> = {
  userEmail: { type: 'string', format: 'email', description: 'The user email' },
  userId: { ...ID_SCHEMA, description: 'The user id' },
};

/** `teamName`, `collectionName`, `recordId` filters. */
export const RECORD_FILTER_PROPERTIES: Record<string, JsonSchema> = {
  teamName: { type: 'string', minLength: 1, description: 'The team name' },
  collectionName: { type: 'string', minLength: 1, description: 'The collection name' },
  recordId: { type: 'string', minLength: 1, description: 'The record id' },
};

/** Schema of routes that take no query parameter at all. */
export const NO_QUERY: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };
