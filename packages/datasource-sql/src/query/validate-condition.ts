import {
  ARRAY_VALUED_OPERATORS,
  NUMBER_VALUED_OPERATORS,
  TEXT_MATCH_OPERATORS,
  VALUELESS_OPERATORS,
  ValidationError,
  type ColumnSchema,
  type PlainConditionTree,
} from '@canopy/agent-core';
import type { QueryContext } from './query-context';
import { assertStorable, assertValueType } from './validate-value';

const VALUELESS = new Set<string>(VALUELESS_OPERATORS);
const NUMBER_VALUED = new Set<string>(NUMBER_VALUED_OPERATORS);
const ARRAY_VALUED = new Set<string>(ARRAY_VALUED_OPERATORS);
const TEXT_VALUED = new Set<string>(TEXT_MATCH_OPERATORS);

/**
 * Checks a condition tree against the schema before any SQL runs: every field exists, every
 * operator is supported by its column, every value has the column's type.
 */
export function validateCondition(context: QueryContext, tree: PlainConditionTree | null): void {
  if (!tree) return;
  if ('aggregator' in tree) {
    if (tree.aggregator !== 'And' && tree.aggregator !== 'Or') {
      throw new ValidationError(
        `Invalid aggregator '${String(tree.aggregator)}': the supported values are: ['Or', 'And'].`,
      );
    }
    if (!Array.isArray(tree.conditions))
      throw new ValidationError('A condition tree branch needs a `conditions` array.');
    for (const condition of tree.conditions) validateCondition(context, condition);
    return;
  }
  if (typeof tree.field !== 'string' || typeof tree.operator !== 'string') {
    throw new ValidationError(
      `Invalid condition ${JSON.stringify(tree)}: a leaf needs a \`field\` and an \`operator\`.`,
    );
  }
  const resolved = context.column(tree.field);
  const schema = resolved.model.fields[resolved.column.name] as ColumnSchema;
  const { operator, value } = tree;
  assertStorable(tree.field, value, context.environment.dialect);
  if (!schema.filterOperators.has(operator)) {
    throw new ValidationError(
      `The given operator '${String(operator)}' is not supported by the column: '${tree.field}'. The allowed operators are: [${[...schema.filterOperators].join(', ')}].`,
    );
  }
  if (VALUELESS.has(operator)) {
    if (value !== null && value !== undefined)
      throw new ValidationError(`The operator '${operator}' on "${tree.field}" takes no value.`);
    return;
  }
  if (NUMBER_VALUED.has(operator)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ValidationError(
        `The operator '${operator}' on "${tree.field}" expects a non-negative number, got ${JSON.stringify(value)}.`,
      );
    }
    return;
  }
  if (ARRAY_VALUED.has(operator)) {
    if (!Array.isArray(value))
      throw new ValidationError(
        `The operator '${operator}' on "${tree.field}" expects an array of values.`,
      );
    const itemSchema: ColumnSchema = Array.isArray(schema.columnType)
      ? { ...schema, columnType: schema.columnType[0] }
      : schema;
    for (const item of value) assertValueType(tree.field, itemSchema, item);
    return;
  }
  if (TEXT_VALUED.has(operator)) {
    if (typeof value !== 'string')
      throw new ValidationError(
        `The operator '${operator}' on "${tree.field}" expects a string, got ${JSON.stringify(value)}.`,
      );
    return;
  }
  if (operator === 'Match') {
    if (!(value instanceof RegExp) && typeof value !== 'string')
      throw new ValidationError(
        `The operator 'Match' on "${tree.field}" expects a regular expression.`,
      );
    return;
  }
  // Left: Equal and NotEqual (null means IS [NOT] NULL), ordering, Before and After.
  if ((value === null || value === undefined) && operator !== 'Equal' && operator !== 'NotEqual') {
    throw new ValidationError(`The operator '${operator}' on "${tree.field}" needs a value.`);
  }
  assertValueType(tree.field, schema, value);
}
