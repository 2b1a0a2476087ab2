import { InvalidScopeError, ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { toConditionTree } from '../../toolkit/query/condition-tree/to-condition-tree';
import { VALUELESS_OPERATORS } from '../../toolkit/query/operators';
import type { ColumnSchema } from '../../toolkit/schema/field-schema';
import { validateConditionTree } from '../../toolkit/validation/condition-tree-validator';
import { resolveColumnPath } from '../../toolkit/validation/field-path';
import { assertJsonBounds } from '../../toolkit/validation/json-bounds';
import { createPerCollectionCache } from './per-collection-cache';

const NUMBER_CAST_OPERATORS = new Set([
  'ShorterThan',
  'LongerThan',
  'AfterXHoursAgo',
  'BeforeXHoursAgo',
  'PreviousXDays',
  'PreviousXDaysToDate',
]);

/**
 * Bounds of a condition tree received from a request or the platform, checked before any
 * recursive code walks it: front ends build two or three levels and a few dozen conditions. A
 * branch is two levels of JSON (the object and its `conditions` array), so 64 levels allow 31
 * nested branches.
 */
export const CONDITION_TREE_BOUNDS = { maxDepth: 64, maxContainers: 10_000 } as const;

/** Operators that compare with `null` meaningfully (`Equal null` is "is null"). */
const NULL_ACCEPTING_OPERATORS = new Set(['Equal', 'NotEqual']);
const VALUELESS: ReadonlySet<string> = new Set(VALUELESS_OPERATORS);
/** A decimal number as text: what a `Number` filter value may be given as. */
const DECIMAL_TEXT = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const TRUE_TEXTS = new Set(['true', 'yes', '1']);
const FALSE_TEXTS = new Set(['false', 'no', '0']);

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
 * Every failure is a validation error `Invalid filters (<reason>)`.
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
 * filters or a platform scope or condition. `origin` names it in errors; a scope that does not
 * fit the collection is an {@link InvalidScopeError} (unprocessable), not the caller's fault.
 */
export function parseConditionTreeJson(
  collection: Collection,
  json: unknown,
  origin: 'filters' | 'scope' | 'condition',
): ConditionTree | null {
  if (json === null || json === undefined) return null;
  try {
    assertJsonBounds(json, CONDITION_TREE_BOUNDS, 'the condition tree');
    const tree = toConditionTree(normalize(collection, json) as never);
    validateConditionTree(collection, tree);
    return tree;
  } catch (error) {
    if (origin === 'filters') throw error;
    if (origin === 'scope') {
      throw new InvalidScopeError(collection.name, describe(error), { cause: error });
    }
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
    assertValuePresence(record.field, operator, record);
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

/**
 * An operator that compares with a value needs one: a leaf without `value` is refused instead of
 * matching as if it were `null`; only `equal`/`not_equal` accept an explicit `null` ("is null").
 */
function assertValuePresence(field: string, operator: string, leaf: Record<string, unknown>): void {
  if (VALUELESS.has(operator)) return;
  const value = leaf.value;
  if (value === undefined || (value === null && !NULL_ACCEPTING_OPERATORS.has(operator))) {
    throw new ValidationError(
      `operator '${operator}' on "${field}" needs a value, got ${value === null ? 'null' : 'none'}`,
    );
  }
}

function castValue(
  collection: Collection,
  field: string,
  operator: string,
  value: unknown,
): unknown {
  if (value === null || value === undefined) return value;
  if (NUMBER_CAST_OPERATORS.has(operator)) return castNumber(value);
  const column = columnAt(collection, field);
  if (!column) return value;
  if (operator === 'In' || operator === 'NotIn') {
    const items = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
    // Items are cast one by one and then validated: one that does not fit the column is a validation error,
    // never silently dropped (which would widen a `not_in`).
    return Array.isArray(items) ? items.map((item) => castScalar(column, item)) : items;
  }
  return castScalar(column, value);
}

/** `"12"` → 12; anything that is not a number or decimal text is left for the validator to refuse. */
function castNumber(value: unknown): unknown {
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return Number(value);
  return value;
}

/**
 * Casts a scalar to the column's type (§6.3) only where the text is unambiguous: `"12"` on a
 * number, `"yes"` on a boolean, a number on a string. Values that do not fit (`true` on a number,
 * `"abc"` on a boolean, an object on a string) are left as they are, so that validation refuses
 * them with a message that names the field and the expected type.
 */
function castScalar(column: ColumnSchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (column.columnType) {
    case 'String':
    case 'Date':
    case 'Dateonly':
      return typeof value === 'number' ? String(value) : value;
    case 'Number':
      return castNumber(value);
    case 'Boolean': {
      if (typeof value === 'string') {
        const lower = value.toLowerCase();
        if (TRUE_TEXTS.has(lower)) return true;
        if (FALSE_TEXTS.has(lower)) return false;
      }
      if (value === 1 || value === 0) return value === 1;
      return value;
    }
    default:
      return value;
  }
}
