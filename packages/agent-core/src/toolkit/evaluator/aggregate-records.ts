import type { AggregateResult, Aggregation } from '../query/aggregation';
import { type RecordData, getFieldValue } from '../record/record-utils';
import { stableStringify } from './comparable-value';
import { dateBucket } from './date-buckets';
import type { EvaluationContext } from './time-zone';

function computeValue(aggregation: Aggregation, records: RecordData[]): unknown {
  const values =
    aggregation.field === null
      ? records
      : records
          .map((record) => getFieldValue(record, aggregation.field as string))
          .filter((value) => value !== null && value !== undefined);

  switch (aggregation.operation) {
    case 'Count':
      return values.length;
    case 'Sum':
      return values.reduce<number>((sum, value) => sum + (toNumber(value) ?? 0), 0);
    case 'Avg': {
      if (values.length === 0) return undefined;
      const sum = values.reduce<number>((total, value) => total + (toNumber(value) ?? 0), 0);
      return sum / values.length;
    }
    case 'Max':
    case 'Min':
      return values.reduce<unknown>((best, value) => {
        if (best === undefined) return value;
        const better = aggregation.operation === 'Max' ? value > best! : value < best!;
        return better ? value : best;
      }, undefined);
  }
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
    return Number(value);
  }
  return null;
}

/**
 * Aggregates records in memory (data-semantics §2.10): groups by exact value (dates bucketed in
 * the caller's zone), `Count` without field counts records and with a field counts non-null
 * values, `Avg` groups without values are omitted; rows sorted by value descending, then limited.
 *
 * @example
 * aggregateRecords(orders, new Aggregation({ operation: 'Sum', field: 'amount' }), { timezone: 'UTC' });
 * // [{ value: 2000, group: {} }]
 */
export function aggregateRecords(
  records: readonly RecordData[],
  aggregation: Aggregation,
  context: EvaluationContext,
  limit?: number | null,
): AggregateResult[] {
  const groups = new Map<string, { group: Record<string, unknown>; records: RecordData[] }>();
  for (const record of records) {
    const group: Record<string, unknown> = {};
    for (const { field, operation } of aggregation.groups) {
      const value = getFieldValue(record, field) ?? null;
      group[field] = operation ? dateBucket(value, operation, context.timezone) : value;
    }
    const key = stableStringify(group);
    const entry = groups.get(key) ?? { group, records: [] };
    entry.records.push(record);
    groups.set(key, entry);
  }
  if (aggregation.groups.length === 0 && groups.size === 0)
    groups.set('{}', { group: {}, records: [] });

  const rows: AggregateResult[] = [];
  for (const { group, records: members } of groups.values()) {
    const value = computeValue(aggregation, members);
    if (aggregation.operation === 'Avg' && value === undefined) continue;
    rows.push({ value: value ?? null, group });
  }
  rows.sort((a, b) => compareDescending(a.value, b.value));
  return limit === undefined || limit === null ? rows : rows.slice(0, limit);
}

function compareDescending(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return (a as number) < (b as number) ? 1 : (a as number) > (b as number) ? -1 : 0;
}
