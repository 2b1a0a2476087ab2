import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { toConditionTree } from '../../toolkit/query/condition-tree/to-condition-tree';
import type { ColumnSchema } from '../../toolkit/schema/field-schema';
import { validateConditionTree } from '../../toolkit/validation/condition-tree-validator';
import { resolveColumnPath } from '../../toolkit/validation/field-path';
import { createPerCollectionCache } from '../cache/per-collection-cache';

const NUMBER_CAST_OPERATORS = new Set([
  'ShorterThan',
  'LongerThan',
  'AfterXHoursAgo',
  'BeforeXHoursAgo',
  'PreviousXDays',
  'PreviousXDaysToDate',
]);

/** `not_i_contains` → `NotIContains`, `and` → `And` (§6.3 casing rule). */
export function toPascalCase(value: string): string {
  return value
    .replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase())
    .replace(/_/g, '');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Parses the `filters` of a request (a JSON string or an already-parsed object) into a validated
 * condition tree on `collection`, with the casing and value casts of agent-http-protocol §6.3.
 * Every failure is a 400 `Invalid filters (<reason>)`.
 */
export function parseFilters(collection: Collection, raw: unknown): ConditionTree | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw === 'string') {
    return filterCache(collection, raw, () => parseFilterValue(collection, raw));
  }
  return parseFilterValue(collection, raw);
}

/** Condition trees are immutable: the same filter text is parsed once per collection. */
const filterCache = createPerCollectionCache<ConditionTree | null>();

function parseFilterValue(collection: Collection, raw: unknown): ConditionTree | null {
  try {
    const json: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return parseConditionTreeJson(collection, json, 'filters');
  } catch (error) {
    throw new ValidationError(`Invalid filters (${describe(error)})`, { cause: error });
  }
}

/**
 * Normalizes (casing, casts) and validates a condition tree given as JSON, for a request's
 * filters or a platform scope or condition. `origin` names it in errors.
 */
export function parseConditionTreeJson(
  collection: Collection,
  json: unknown,
  origin: 'filters' | 'scope' | 'condition',
): ConditionTree | null {
  if (json === null || json === undefined) return null;
  try {
    const tree = toConditionTree(normalize(collection, json) as never);
    validateConditionTree(collection, tree);
    return tree;
  } catch (error) {
    if (origin === 'filters') throw error;
    throw new ValidationError(
      `Invalid ${origin} of '${collection.name}' from the platform: ${describe(error)}`,
      { cause: error },
    );
  }
}

function normalize(collection: Collection, node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    throw new ValidationError(
      `a condition must be an object { field, operator, value } or { aggregator, conditions }, got ${JSON.stringify(node)}`,
    );
  }
  const record = node as Record<string, unknown>;
  if ('aggregator' in record && 'conditions' in record) {
    if (typeof record.aggregator !== 'string' || !Array.isArray(record.conditions)) {
      throw new ValidationError('a branch needs a string aggregator and an array of conditions');
    }
    return {
      aggregator: toPascalCase(record.aggregator),
      conditions: record.conditions.map((condition) => normalize(collection, condition)),
    };
  }
  if ('field' in record && 'operator' in record) {
    if (typeof record.field !== 'string' || typeof record.operator !== 'string') {
      throw new ValidationError('a condition needs a string field and a string operator');
    }
    const operator = toPascalCase(record.operator);
    return {
      field: record.field,
      operator,
      value: castValue(collection, record.field, operator, record.value),
    };
  }
  throw new ValidationError(
    `a condition must be { field, operator, value } or { aggregator, conditions }, got ${JSON.stringify(node)}`,
  );
}

function columnAt(collection: Collection, path: string): ColumnSchema | null {
  try {
    return resolveColumnPath(collection, path).schema;
  } catch {
    return null;
  }
}

function castValue(
  collection: Collection,
  field: string,
  operator: string,
  value: unknown,
): unknown {
  if (value === null || value === undefined) return value;
  if (NUMBER_CAST_OPERATORS.has(operator)) return Number(value);
  const column = columnAt(collection, field);
  if (!column) return value;
  if (operator === 'In' || operator === 'NotIn') {
    const items = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
    if (!Array.isArray(items)) return items;
    const cast = items.map((item) => castScalar(column, item));
    return column.columnType === 'Number' ? cast.filter((item) => !Number.isNaN(item)) : cast;
  }
  return castScalar(column, value);
}

function castScalar(column: ColumnSchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (column.columnType) {
    case 'String':
    case 'Date':
    case 'Dateonly':
      return typeof value === 'object' ? value : String(value);
    case 'Number':
      return typeof value === 'object' ? value : Number(value);
    case 'Boolean':
      if (typeof value === 'string') {
        const lower = value.toLowerCase();
        if (['true', 'yes', '1'].includes(lower)) return true;
        if (['false', 'no', '0'].includes(lower)) return false;
      }
      return typeof value === 'object' ? value : Boolean(value);
    default:
      return value;
  }
}
