import { DateTime } from 'luxon';

const SQL_TIMESTAMP =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:\+00|Z)?$/;

/**
 * Reads a timestamp as the databases print it (`2024-03-15 10:00:00.123456+01`, ISO, or a
 * `Date`) into a UTC ISO string with milliseconds. Text without an offset is UTC: every
 * connection runs in UTC, so naive timestamps are stored as UTC. Unknown text is returned as is.
 */
export function toIsoTimestamp(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint') {
    return new Date(Number(value)).toISOString();
  }
  if (typeof value !== 'string') return value;
  // What every connection returns in UTC (`2024-03-15 10:00:00.123456+00`): no Date needed.
  const utc = UTC_TIMESTAMP.exec(value);
  if (utc) return `${utc[1]}T${utc[2]}.${`${utc[3] ?? ''}000`.slice(0, 3)}Z`;
  const match = SQL_TIMESTAMP.exec(value.trim());
  if (!match) return value;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone] = match;
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3, 5) || '00'}`;
  }
  const millis = `${fraction}000`.slice(0, 3);
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}${offset}`;
  const parsed = new Date(iso);
  return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

/** Reads a date (`2024-03-15`, a timestamp text, or a `Date`) as `YYYY-MM-DD`. */
export function toIsoDate(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return value;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
}

/**
 * Parses a value given for a Date column (ISO string with or without offset, or a `Date`);
 * text without an offset is read in `zone` (the caller's time zone). `undefined` when invalid.
 */
export function parseInstant(value: unknown, zone = 'UTC'): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const parsed = DateTime.fromISO(value.trim().replace(' ', 'T'), { zone });
  return parsed.isValid ? parsed.toJSDate() : undefined;
}
