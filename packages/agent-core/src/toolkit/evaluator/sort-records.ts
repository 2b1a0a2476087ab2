import type { SortClause } from '../query/sort';
import { type RecordData, getFieldValue } from '../record/record-utils';
import { compareComparables, toComparable } from './comparable-value';
import type { ColumnTypeResolver } from './match-record';

/**
 * Sorts records (a copy) by the clauses, comparing values by their column type; `null` sorts
 * first ascending. The sort is stable.
 */
export function sortRecords<T extends RecordData>(
  records: readonly T[],
  sort: readonly SortClause[] | null,
  resolveType: ColumnTypeResolver,
  timezone = 'UTC',
): T[] {
  if (!sort || sort.length === 0) return [...records];
  const types = sort.map((clause) => resolveType(clause.field));
  return [...records].sort((a, b) => {
    for (const [index, clause] of sort.entries()) {
      const type = types[index] ?? 'Json';
      const order = compareComparables(
        toComparable(getFieldValue(a, clause.field), type, timezone),
        toComparable(getFieldValue(b, clause.field), type, timezone),
      );
      if (order !== 0) return clause.ascending ? order : -order;
    }
    return 0;
  });
}
