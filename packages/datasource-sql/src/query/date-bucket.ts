import type { DateOperation } from '@canopy/agent-core/toolkit';
import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedColumn } from '../introspection/introspection';
import { instantToDatabase } from '../values/to-database';
import { zoneOffsets, type OffsetSegment } from './zone-offsets';

/** A SQL fragment with its `?`/`??` bindings. */
export interface SqlFragment {
  sql: string;
  bindings: unknown[];
}

/** A balanced CASE over offset segments: about log2(n) comparisons per row. */
function shifted(ref: string, segments: OffsetSegment[], dialect: SqlDialect): SqlFragment {
  if (segments.length === 1) {
    const minutes = segments[0]?.offsetMinutes ?? 0;
    return dialect === 'sqlite'
      ? { sql: `datetime(??, '${minutes >= 0 ? '+' : ''}${minutes} minutes')`, bindings: [ref] }
      : { sql: `DATE_ADD(??, INTERVAL ${minutes} MINUTE)`, bindings: [ref] };
  }
  const middle = Math.floor(segments.length / 2);
  const boundary = segments[middle - 1]?.until ?? 0;
  const left = shifted(ref, segments.slice(0, middle), dialect);
  const right = shifted(ref, segments.slice(middle), dialect);
  return {
    sql: `CASE WHEN ?? < ? THEN ${left.sql} ELSE ${right.sql} END`,
    bindings: [
      ref,
      instantToDatabase(new Date(boundary), dialect),
      ...left.bindings,
      ...right.bindings,
    ],
  };
}

/** The column's value as a local date-time of `timezone` (dates are already local). */
function localTime(
  ref: string,
  column: IntrospectedColumn,
  dialect: SqlDialect,
  timezone: string,
): SqlFragment {
  const isInstant = column.type.kind === 'scalar' && column.type.scalar === 'timestamp';
  if (!isInstant) return { sql: '??', bindings: [ref] };
  if (dialect === 'postgres') {
    return column.type.kind === 'scalar' && column.type.withTimeZone
      ? { sql: '(?? AT TIME ZONE ?)', bindings: [ref, timezone] }
      : { sql: "((?? AT TIME ZONE 'UTC') AT TIME ZONE ?)", bindings: [ref, timezone] };
  }
  return shifted(ref, zoneOffsets(timezone), dialect);
}

function repeat(fragment: SqlFragment, template: string): SqlFragment {
  const parts = template.split('{L}');
  return {
    sql: parts.join(fragment.sql),
    bindings: Array.from({ length: parts.length - 1 }, () => fragment.bindings).flat(),
  };
}

/**
 * SQL giving the first day (`YYYY-MM-DD`) of the Year/Quarter/Month/Week (Monday)/Day bucket of
 * a date column, computed in the caller's time zone on every dialect.
 */
export function dateBucket(
  ref: string,
  column: IntrospectedColumn,
  operation: DateOperation,
  dialect: SqlDialect,
  timezone: string,
): SqlFragment {
  const local = localTime(ref, column, dialect, timezone);
  if (dialect === 'postgres') {
    return repeat(local, `TO_CHAR(DATE_TRUNC('${operation.toLowerCase()}', {L}), 'YYYY-MM-DD')`);
  }
  if (dialect === 'sqlite') {
    switch (operation) {
      case 'Year':
        return repeat(local, "STRFTIME('%Y-01-01', {L})");
      case 'Month':
        return repeat(local, "STRFTIME('%Y-%m-01', {L})");
      case 'Day':
        return repeat(local, "STRFTIME('%Y-%m-%d', {L})");
      case 'Week':
        return repeat(
          local,
          "DATE({L}, '-' || ((CAST(STRFTIME('%w', {L}) AS INTEGER) + 6) % 7) || ' days')",
        );
      default:
        return repeat(
          local,
          "STRFTIME('%Y', {L}) || '-' || PRINTF('%02d', ((CAST(STRFTIME('%m', {L}) AS INTEGER) - 1) / 3) * 3 + 1) || '-01'",
        );
    }
  }
  switch (operation) {
    case 'Year':
      return repeat(local, "DATE_FORMAT({L}, '%Y-01-01')");
    case 'Month':
      return repeat(local, "DATE_FORMAT({L}, '%Y-%m-01')");
    case 'Day':
      return repeat(local, "DATE_FORMAT({L}, '%Y-%m-%d')");
    case 'Week':
      return repeat(local, "DATE_FORMAT(DATE_SUB({L}, INTERVAL WEEKDAY({L}) DAY), '%Y-%m-%d')");
    default:
      return repeat(local, "CONCAT(YEAR({L}), '-', LPAD(QUARTER({L}) * 3 - 2, 2, '0'), '-01')");
  }
}
