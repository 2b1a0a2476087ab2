import type { RecordData } from '@canopy/agent-core/toolkit';
import type { SqlDialect } from '../connection/sql-connection-params';
import { toIsoTimestamp } from '../values/date-text';
import { toSafeNumber } from '../values/safe-number';

/** PostgreSQL `timestamp` and `timestamptz` type ids. */
const PG_TIMESTAMPS = new Set([1114, 1184]);
/** MySQL protocol column types TIMESTAMP and DATETIME. */
const MYSQL_TIMESTAMPS = new Set([7, 12]);

interface Field {
  name: string;
  dataTypeID?: number;
  type?: number;
  columnType?: number;
}

function convert(rows: RecordData[], timestamps: string[]): RecordData[] {
  if (timestamps.length === 0) return rows;
  return rows.map((row) => {
    const copy = { ...row };
    for (const name of timestamps) copy[name] = toIsoTimestamp(copy[name] ?? null);
    return copy;
  });
}

/**
 * The rows of a native query, with timestamps as UTC ISO strings like every other value of the
 * data source (the pool reads them as text so that no local time zone applies).
 */
export function nativeRows(result: unknown, dialect: SqlDialect): RecordData[] {
  if (dialect === 'sqlite') {
    // SQLite integers arrive as BigInt: numbers when exact, strings otherwise (JSON-safe).
    return (result as RecordData[]).map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === 'bigint' ? toSafeNumber(value.toString()) : value,
        ]),
      ),
    );
  }
  if (dialect === 'postgres') {
    const { rows, fields } = result as { rows: RecordData[]; fields: Field[] };
    const timestamps = fields
      .filter((field) => PG_TIMESTAMPS.has(field.dataTypeID ?? -1))
      .map((field) => field.name);
    return convert(rows, timestamps);
  }
  const [rows, fields] = result as [RecordData[], Field[] | undefined];
  const timestamps = (fields ?? [])
    .filter((field) => MYSQL_TIMESTAMPS.has(field.columnType ?? field.type ?? -1))
    .map((field) => field.name);
  return convert(rows, timestamps);
}
