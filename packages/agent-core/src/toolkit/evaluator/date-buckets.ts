import type { DateOperation } from '../schema/collection-schema';
import { formatDate, toDateTime } from './time-zone';

const UNITS = {
  Year: 'year',
  Quarter: 'quarter',
  Month: 'month',
  Week: 'week',
  Day: 'day',
} as const;

/**
 * The first day (`YYYY-MM-DD`) of the bucket containing a date, in the caller's time zone: Year
 * → January 1st, Quarter → first day of the quarter, Month → first of the month, Week → Monday,
 * Day → the date. Non-dates give `null`.
 *
 * @example
 * dateBucket('2024-03-31T23:30:00Z', 'Month', 'Europe/Paris'); // '2024-04-01'
 */
export function dateBucket(
  value: unknown,
  operation: DateOperation,
  timezone: string,
): string | null {
  const date = toDateTime(value, timezone);
  return date ? formatDate(date.startOf(UNITS[operation])) : null;
}
