import pg from 'pg';

/** PostgreSQL's type oid of `timestamptz`. */
export const TIMESTAMPTZ_OID = 1184;

/**
 * PostgreSQL's text form of a UTC `timestamptz` (session `TimeZone` UTC, `DateStyle` ISO) of a
 * year 0001–9999 AD, with at most millisecond precision: `2026-03-01 10:00:00.123+00`.
 */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,3}))?\+00$/;

/**
 * The `toISOString()` of the instant PostgreSQL gives as `text` (a `timestamptz` in its text
 * form), without building a `Date` when it can: the common form (UTC, years 0001–9999, at most
 * milliseconds) is rewritten directly; anything else (another offset, BC, a five-digit year,
 * microseconds, `infinity`) goes through pg's own parser and `Date#toISOString`, as before.
 */
export function timestamptzToIso(text: string): string {
  const match = UTC_TIMESTAMP.exec(text);
  if (match !== null) {
    const fraction = match[3];
    const ms = fraction === undefined ? '000' : fraction.padEnd(3, '0');
    return `${match[1]}T${match[2]}.${ms}Z`;
  }
  return (defaultTimestamptzParser(text) as Date).toISOString();
}

const defaultTimestamptzParser = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text');
