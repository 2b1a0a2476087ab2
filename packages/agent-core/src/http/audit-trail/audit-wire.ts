import { DateTime } from 'luxon';

import { ValidationError } from '../../toolkit/errors/canopy-error';

/**
 * How the record history routes read their parameters (agent-http-protocol §13.1), kept apart
 * from the routes so that each rule of the wire is one small function.
 */

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

/** A number as JavaScript's `parseInt` reads it: leading digits, `NaN` when there are none. */
function leadingInteger(value: string | null): number {
  const match = /^\s*([+-]?\d+)/.exec(value ?? '');
  return match ? Number(match[1]) : NaN;
}

/**
 * `page[number]` (1-based, default 1) and `page[size]` (default 20, capped at 100): the leading
 * digits are read, and a value without any or below 1 falls back to the default.
 */
export function historyPage(
  number: string | null,
  size: string | null,
): { number: number; size: number } {
  const pageNumber = leadingInteger(number);
  const pageSize = leadingInteger(size);
  return {
    number: Number.isSafeInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1,
    size:
      Number.isSafeInteger(pageSize) && pageSize >= 1
        ? Math.min(pageSize, MAX_PAGE_SIZE)
        : DEFAULT_PAGE_SIZE,
  };
}

/** `userIds=12,abc,45`: the tokens made of digits only; none left means no filter (`null`). */
export function historyUserIds(value: string | null): number[] | null {
  const ids = (value ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => /^\d+$/.test(token))
    .map(Number);
  return ids.length > 0 ? ids : null;
}

/** `fields=a,b`: the names given, blanks dropped. */
export function historyFields(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const WITH_OFFSET = /[Zz]$|[+-]\d{2}:?\d{2}$/;

/**
 * `startDate` / `endDate` / `at`: an instant with its own offset, or a wall-clock time in the
 * request's `timezone` — a day (`start`: its first millisecond, `end`: its last) or a date-time
 * with `T` or a space (`end` without seconds: the last millisecond of that minute). Both bounds are
 * inclusive. Empty: no bound. Anything else, or an unknown time zone: `400`.
 */
export function historyBound(
  name: string,
  value: string | null,
  timezone: string,
  boundary: 'start' | 'end',
): Date | null {
  if (value === null || value === '') return null;
  let date: DateTime;
  if (WITH_OFFSET.test(value)) {
    date = DateTime.fromISO(value, { setZone: true });
  } else if (DATE_ONLY.test(value)) {
    const day = DateTime.fromISO(value, { zone: timezone });
    date = boundary === 'end' ? day.endOf('day') : day.startOf('day');
  } else {
    const match = LOCAL_DATE_TIME.exec(value);
    if (match) {
      const [, day, hours, minutes, seconds, fraction] = match;
      const base = DateTime.fromISO(`${day}T${hours}:${minutes}`, { zone: timezone });
      // Milliseconds are Canopy's leniency (the Console's pickers send them); the reference
      // reads seconds at most.
      const millisecond = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
      if (seconds !== undefined) date = base.set({ second: Number(seconds), millisecond });
      else date = boundary === 'end' ? base.set({ second: 59, millisecond: 999 }) : base;
    } else {
      date = DateTime.invalid('unparsable');
    }
  }
  if (!date.isValid) {
    if (date.invalidReason === 'unsupported zone') {
      throw new ValidationError(`Invalid timezone '${timezone}'`);
    }
    throw new ValidationError(
      `Invalid ${name} '${value}': use YYYY-MM-DD, YYYY-MM-DD[T| ]HH:mm[:ss] (in the request's timezone) or an ISO date-time with offset.`,
    );
  }
  return date.toJSDate();
}

/**
 * `search`, trimmed (empty: no filter), matched case-insensitively as a substring of any one of
 * the texts given (a missing text matches nothing).
 */
export function searchMatches(search: string, texts: readonly (string | null)[]): boolean {
  return texts.some((text) => text !== null && text.toLowerCase().includes(search));
}

/**
 * The correlation keys of `GET|POST /_audit-trail/correlations`: a `correlationKeys` list in the
 * body wins (each item as text), else the comma-separated query parameter; blanks dropped.
 */
export function correlationKeysOf(body: Record<string, unknown>, query: string | null): string[] {
  const raw = Array.isArray(body.correlationKeys)
    ? body.correlationKeys.map((key) => String(key))
    : (query ?? '').split(',');
  return raw.map((key) => key.trim()).filter(Boolean);
}

/** `collection` / `recordId` of a correlation route: the query's, else the body's, as text. */
export function correlationTarget(
  body: Record<string, unknown>,
  query: URLSearchParams,
): { collection: string; recordId: string } {
  const text = (value: unknown): string =>
    value === null || value === undefined ? '' : String(value);
  const collection = text(query.get('collection') ?? body.collection);
  const recordId = text(query.get('recordId') ?? body.recordId);
  if (!collection) throw new ValidationError('Missing collection');
  if (!recordId) throw new ValidationError('Missing recordId');
  return { collection, recordId };
}

/** Canopy's opt-in (`acrossRecords=true`, query or body): a correlation's entries of any record. */
export function acrossRecords(body: Record<string, unknown>, query: URLSearchParams): boolean {
  return body.acrossRecords === true || query.get('acrossRecords') === 'true';
}
