import { DateTime } from 'luxon';
import { ValidationError } from '../errors/canopy-error';

/**
 * Where and when an in-memory evaluation happens: relative date operators and date buckets are
 * resolved in `timezone` (an IANA name), relative to `now` (defaults to the current instant).
 */
export interface EvaluationContext {
  timezone: string;
  now?: Date;
}

/** The current instant of a context, in its time zone (rejects unknown zones). */
export function nowIn(context: EvaluationContext): DateTime {
  const now = DateTime.fromJSDate(context.now ?? new Date(), { zone: context.timezone });
  if (!now.isValid) {
    throw new ValidationError(
      `Invalid time zone '${context.timezone}'. Expected an IANA name such as 'Europe/Paris'.`,
    );
  }
  return now;
}

/**
 * Parses a date value (a `Date`, an ISO string, epoch milliseconds) as an instant; ISO strings
 * without an offset are read in the caller's time zone. Returns `null` when it is not a date.
 */
export function toDateTime(value: unknown, timezone: string): DateTime | null {
  let parsed: DateTime | null = null;
  if (value instanceof Date) parsed = DateTime.fromJSDate(value, { zone: timezone });
  else if (typeof value === 'string') parsed = DateTime.fromISO(value, { zone: timezone });
  else if (typeof value === 'number') parsed = DateTime.fromMillis(value, { zone: timezone });
  return parsed?.isValid ? parsed : null;
}

/** Wire format of a `Date` boundary: UTC ISO without milliseconds (`2024-03-14T23:00:00Z`). */
export function formatInstant(value: DateTime): string {
  return value.toUTC().toISO({ suppressMilliseconds: true }) as string;
}

/** Wire format of a `Dateonly` value: the local calendar date (`2024-03-15`). */
export function formatDate(value: DateTime): string {
  return value.toISODate() as string;
}
