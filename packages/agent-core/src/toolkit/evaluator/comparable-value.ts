import type { ColumnType } from '../schema/column-type';
import { formatDate, toDateTime } from './time-zone';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A value converted so that `===` means "equal" and `<`/`>` mean "ordered" for its column type:
 * `Date` values become epoch milliseconds, `Dateonly` values local calendar dates, bytes and
 * structured values their serialized form. `null`/`undefined` become `null`.
 */
export function toComparable(value: unknown, columnType: ColumnType, timezone: string): unknown {
  if (value === null || value === undefined) return null;
  if (columnType === 'Date') {
    // Fast path: an ISO string with an explicit offset needs no time-zone library.
    if (typeof value === 'string' && ISO_WITH_OFFSET.test(value)) return Date.parse(value);
    if (value instanceof Date) return value.getTime();
    return toDateTime(value, timezone)?.toMillis() ?? value;
  }
  if (columnType === 'Dateonly') {
    if (typeof value === 'string' && ISO_DATE.test(value)) return value;
    const parsed = toDateTime(value, timezone);
    return parsed ? formatDate(parsed) : value;
  }
  if (columnType === 'Number' && typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isNaN(number) ? value : number;
  }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    return `bytes:${Buffer.from(value).toString('hex')}`;
  }
  if (typeof value === 'object') return `json:${stableStringify(value)}`;
  return value;
}

/** JSON with object keys sorted, so that equal structures serialize identically. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify((value as never)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Total order used by in-memory sorts: `null` first, then numbers, then strings, then anything
 * else by its serialized form.
 */
export function compareComparables(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const left = typeof a === 'string' ? a : String(a);
  const right = typeof b === 'string' ? b : String(b);
  if (left < right) return -1;
  return left > right ? 1 : 0;
}
