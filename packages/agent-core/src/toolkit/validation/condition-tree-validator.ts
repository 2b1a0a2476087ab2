import { ValidationError } from '../errors/canopy-error';
import type { Collection } from '../interfaces/collection';
import type { ConditionTree } from '../query/condition-tree/condition-tree';
import {
  ARRAY_COLUMN_OPERATORS,
  ARRAY_VALUED_OPERATORS,
  NUMBER_VALUED_OPERATORS,
  type Operator,
  OPERATORS_BY_TYPE,
  VALUELESS_OPERATORS,
} from '../query/operators';
import type { ColumnSchema } from '../schema/field-schema';
import { resolveColumnPath } from './field-path';
import { isValidated, markValidated } from './validated';
import { validateValue } from './value-validator';

const has = (list: readonly Operator[], operator: Operator) => list.includes(operator);

/** Operators allowed for a column's type (data-semantics §2.3); composite types allow none. */
export function allowedOperatorsForType(column: ColumnSchema): ReadonlySet<Operator> {
  const type = column.columnType;
  if (Array.isArray(type)) return ARRAY_COLUMN_OPERATORS;
  if (typeof type === 'string') return OPERATORS_BY_TYPE[type];
  return OPERATORS_BY_TYPE.Point;
}

/** Checks the value a leaf carries for its operator and column. */
export function validateLeafValue(
  label: string,
  column: ColumnSchema,
  operator: Operator,
  value: unknown,
): void {
  if (has(VALUELESS_OPERATORS, operator)) {
    if (value !== null && value !== undefined) {
      throw new ValidationError(
        `Operator '${operator}' on "${label}" takes no value, got ${JSON.stringify(value)}.`,
      );
    }
    return;
  }
  if (has(NUMBER_VALUED_OPERATORS, operator)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new ValidationError(
        `Operator '${operator}' on "${label}" expects a number, got ${JSON.stringify(value)}.`,
      );
    }
    return;
  }
  if (operator === 'Match') {
    if (!(value instanceof RegExp) && typeof value !== 'string') {
      throw new ValidationError(
        `Operator 'Match' on "${label}" expects a regular expression, got ${JSON.stringify(value)}.`,
      );
    }
    return;
  }
  if (has(ARRAY_VALUED_OPERATORS, operator)) {
    if (!Array.isArray(value)) {
      throw new ValidationError(
        `Operator '${operator}' on "${label}" expects an array of values, got ${JSON.stringify(value)}.`,
      );
    }
    const isArrayColumn = Array.isArray(column.columnType);
    const itemColumn =
      isArrayColumn && (operator === 'IncludesAll' || operator === 'IncludesNone')
        ? {
            columnType: (column.columnType as [ColumnSchema['columnType']])[0],
            enumValues: column.enumValues,
          }
        : column;
    for (const item of value) validateValue(label, itemColumn, item);
    return;
  }
  if (
    [
      'Contains',
      'NotContains',
      'StartsWith',
      'EndsWith',
      'IContains',
      'NotIContains',
      'IStartsWith',
      'IEndsWith',
      'Like',
      'ILike',
    ].includes(operator)
  ) {
    if (typeof value !== 'string') {
      throw new ValidationError(
        `Operator '${operator}' on "${label}" expects a string, got ${JSON.stringify(value)}.`,
      );
    }
    return;
  }
  validateValue(label, column, value);
}

/**
 * Validates a condition tree against a collection (data-semantics §2.3): every field exists (paths
 * through ManyToOne/OneToOne), the column accepts the operator, the operator suits the column
 * type, and the value has the right type.
 */
export function validateConditionTree(collection: Collection, tree: ConditionTree | null): void {
  if (!tree) return;
  tree.forEachLeaf((leaf) => {
    const { collection: owner, name, schema } = resolveColumnPath(collection, leaf.field);
    const label = `${owner.name}.${name}`;
    if (!schema.filterOperators || schema.filterOperators.size === 0) {
      throw new ValidationError(
        `The given operator '${leaf.operator}' is not supported by the column: '${label}'. The column is not filterable.`,
      );
    }
    if (!schema.filterOperators.has(leaf.operator)) {
      throw new ValidationError(
        `The given operator '${leaf.operator}' is not supported by the column: '${label}'. The allowed operators are: [${[...schema.filterOperators].join(', ')}].`,
      );
    }
    if (!allowedOperatorsForType(schema).has(leaf.operator)) {
      throw new ValidationError(
        `The given operator '${leaf.operator}' is not allowed with the columnType schema: '${JSON.stringify(schema.columnType)}' of '${label}'. The allowed operators are: [${[...allowedOperatorsForType(schema)].join(', ')}].`,
      );
    }
    validateLeafValue(label, schema, leaf.operator, leaf.value);
  });
  markValidated(tree);
}

/**
 * {@link validateConditionTree} for a tree not validated yet (see `validated.ts`): where a
 * request enters a collection, and in data sources that must refuse raw trees given directly.
 *
 * @example
 * validateConditionTreeOnce(collection, filter.conditionTree); // walks it once, then trusts it
 */
export function validateConditionTreeOnce(
  collection: Collection,
  tree: ConditionTree | null,
): void {
  if (!isValidated(tree)) validateConditionTree(collection, tree);
}
