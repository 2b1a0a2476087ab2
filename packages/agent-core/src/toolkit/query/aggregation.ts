import type { DateOperation } from '../schema/collection-schema';
import { Projection } from './projection';

/** Aggregate operations. */
export type AggregationOperation = 'Count' | 'Sum' | 'Avg' | 'Max' | 'Min';

/** One group of an aggregation; `operation` buckets a date field. */
export interface AggregationGroup {
  field: string;
  operation?: DateOperation;
}

/** The parts of an {@link Aggregation}. */
export interface AggregationComponents {
  operation: AggregationOperation;
  field?: string | null;
  groups?: readonly AggregationGroup[];
}

/** One row of an aggregation result: `group` maps each group field path to its value. */
export interface AggregateResult {
  value: unknown;
  group: Record<string, unknown>;
}

/**
 * An aggregate computation. Results are ordered by value descending, then truncated to the limit.
 *
 * @example
 * // Sum of `amount` per month of `createdAt`
 * new Aggregation({ operation: 'Sum', field: 'amount', groups: [{ field: 'createdAt', operation: 'Month' }] });
 */
export class Aggregation {
  readonly operation: AggregationOperation;
  readonly field: string | null;
  readonly groups: readonly AggregationGroup[];

  constructor(parts: AggregationComponents) {
    this.operation = parts.operation;
    this.field = parts.field ?? null;
    this.groups = Object.freeze((parts.groups ?? []).map((group) => ({ ...group })));
  }

  /** Field paths read by the aggregation (its field and its groups). */
  get projection(): Projection {
    const fields = this.groups.map((group) => group.field);
    return new Projection(...(this.field ? [this.field] : []), ...fields).union();
  }

  /** Renames every field path with `handler`. */
  replaceFields(handler: (field: string) => string): Aggregation {
    return new Aggregation({
      operation: this.operation,
      field: this.field === null ? null : handler(this.field),
      groups: this.groups.map((group) => ({ ...group, field: handler(group.field) })),
    });
  }

  /** Prefixes every field with `prefix:`. */
  nest(prefix: string | null | undefined): Aggregation {
    return prefix ? this.replaceFields((field) => `${prefix}:${field}`) : this;
  }

  /** A copy with some parts replaced. */
  override(parts: Partial<AggregationComponents>): Aggregation {
    return new Aggregation({
      operation: this.operation,
      field: this.field,
      groups: this.groups,
      ...parts,
    });
  }
}
