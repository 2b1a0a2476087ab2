import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import {
  RelationFieldAccessDeniedError,
  UnexpectedFieldTypeError,
} from '../../../toolkit/errors/schema-errors';
import { compileLeaf } from '../../../toolkit/evaluator/match-leaf';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import type { Operator } from '../../../toolkit/query/operators';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema, ValidationRule } from '../../../toolkit/schema/field-schema';
import { getColumn, getField } from '../../../toolkit/schema/schema-utils';
import {
  validateConditionTreeOnce,
  validateLeafValue,
} from '../../../toolkit/validation/condition-tree-validator';
import {
  validateAggregation,
  validateProjection,
  validateSortOnce,
} from '../../../toolkit/validation/query-validators';
import { validateRecord } from '../../../toolkit/validation/record-validator';
import { isValidated } from '../../../toolkit/validation/validated';
import { CollectionDecorator } from '../collection-decorator';

/** Distinct projections remembered as valid per collection. */
const MAX_VALID_PROJECTIONS = 500;

function remember(cache: Map<string, number>, key: string, version: number): void {
  if (cache.size >= MAX_VALID_PROJECTIONS && !cache.has(key)) {
    cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, version);
}

function describeRule(rule: ValidationRule): string {
  return rule.value === undefined
    ? rule.operator
    : `${rule.operator}(${rule.value instanceof RegExp ? rule.value : JSON.stringify(rule.value)})`;
}

/**
 * Layer 4 — validation: the top of the stack for code calling a collection (customizations,
 * plugins, the testing client), so where such requests enter: checks every incoming filter,
 * projection, sort, aggregation and record against the exposed schema (so wrong values never
 * reach a data source), enforces `addFieldValidation` rules, and applies `setFieldNullable`.
 * Trees and sorts already validated where the request entered (request parsing marks them, see
 * `toolkit/validation/validated.ts`) are trusted; the others are validated and marked, so that
 * the layers and the data source below trust them in turn.
 */
export class ValidationCollectionDecorator extends CollectionDecorator {
  private readonly rules = new Map<string, ValidationRule[]>();
  private readonly nullable = new Set<string>();
  /** Projections (their paths joined) already validated, with the schema version. */
  private readonly validProjections = new Map<string, number>();

  addValidation(name: string, rule: ValidationRule): void {
    if (name.includes(':')) throw new RelationFieldAccessDeniedError(this.name, name);
    const field = getField(this.name, this.childCollection.schema, name);
    if (field.type !== 'Column')
      throw new UnexpectedFieldTypeError(this.name, name, field.type, ['Column']);
    if (field.isReadOnly)
      throw new ValidationError(
        `Cannot add validators on a readonly field ('${this.name}.${name}').`,
      );
    validateLeafValue(`${this.name}.${name}`, field, rule.operator, rule.value);
    this.rules.set(name, [...(this.rules.get(name) ?? []), rule]);
    this.markSchemaAsDirty();
  }

  setFieldNullable(name: string): void {
    getColumn(this.name, this.childCollection.schema, name);
    this.nullable.add(name);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const [name, rules] of this.rules) {
      const column = fields[name] as ColumnSchema;
      fields[name] = { ...column, validation: [...(column.validation ?? []), ...rules] };
    }
    for (const name of this.nullable) {
      const column = fields[name] as ColumnSchema;
      fields[name] = {
        ...column,
        allowNull: true,
        validation: (column.validation ?? []).filter((r) => r.operator !== 'Present'),
      };
    }
    return { ...childSchema, fields };
  }

  /** Lists go straight down once their filter, sort and projection are valid. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    try {
      validateConditionTreeOnce(this, filter.conditionTree);
      validateSortOnce(this, filter.sort);
      const shape = projection.join('\u0000');
      const version = this.dataSource.clock.version;
      if (this.validProjections.get(shape) !== version) {
        validateProjection(this, projection);
        remember(this.validProjections, shape, version);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.readTarget.list(caller, filter, projection);
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    for (const record of data) {
      if (!isValidated(record)) validateRecord(this, record);
      this.checkRules(caller, record, true);
    }
    return super.create(caller, data);
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    validateConditionTreeOnce(this, filter.conditionTree);
    if (!isValidated(patch)) validateRecord(this, patch);
    this.checkRules(caller, patch, false);
    return super.update(caller, filter, patch);
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    validateConditionTreeOnce(this, filter.conditionTree);
    return super.delete(caller, filter);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    validateConditionTreeOnce(this, filter.conditionTree);
    validateAggregation(this, aggregation);
    return super.aggregate(caller, filter, aggregation, limit);
  }

  /** On create every rule applies (even to absent fields); on update only patched fields. */
  private checkRules(caller: Caller, record: RecordData, isCreate: boolean): void {
    for (const [name, rules] of this.rules) {
      if (!isCreate && !(name in record)) continue;
      const value = record[name];
      const column = this.schema.fields[name] as ColumnSchema;
      for (const rule of rules) {
        if ((value === null || value === undefined) && rule.operator !== 'Present') continue;
        const predicate = compileLeaf(rule.operator as Operator, rule.value, column.columnType, {
          timezone: caller.timezone,
        });
        if (!predicate(value)) {
          throw new ValidationError(`'${name}' failed validation rule: '${describeRule(rule)}'`);
        }
      }
    }
  }
}
