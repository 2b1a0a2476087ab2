import type { RecordData } from '../toolkit/record/record-utils';

/** The mask written instead of a redacted value (the reference agent's, agent-http-protocol §13.1). */
export const REDACTED = '[redacted]';

/** A value as JSON can hold it: buffers as base64, big integers as strings, nested objects walked. */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        toJsonValue(item),
      ]),
    );
  }
  return value;
}

/** The stored fields of a record, JSON-safe, the redacted ones masked (only when present). */
export function snapshot(
  record: RecordData,
  fields: readonly string[],
  isRedacted: (field: string) => boolean,
): RecordData {
  const values: RecordData = {};
  for (const field of fields) {
    if (!(field in record)) continue;
    values[field] = isRedacted(field) ? REDACTED : toJsonValue(record[field]);
  }
  return values;
}
