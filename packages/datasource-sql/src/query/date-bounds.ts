import { isCanonicalTimeZone } from '@canopy/agent-core/toolkit';
import { DateTime, type DateTimeUnit } from 'luxon';

/** A half-open period `[start, end)` in the caller's zone. */
export interface Period {
  start: DateTime;
  end: DateTime;
}

const PERIOD_UNITS: Record<string, DateTimeUnit> = {
  Week: 'week',
  Month: 'month',
  Quarter: 'quarter',
  Year: 'year',
};

/**
 * The period a relative date operator covers, computed in `zone` with weeks starting on Monday
 * (data-semantics §2.5). `undefined` for operators that are not periods.
 *
 * @example
 * periodOf('Today', 'Europe/Paris', DateTime.fromISO('2024-03-15T10:00Z'));
 * // [2024-03-15T00:00+01:00, 2024-03-16T00:00+01:00)
 */
export function periodOf(
  operator: string,
  zone: string,
  now: DateTime,
  days?: number,
): Period | undefined {
  const local = now.setZone(zone);
  const today = local.startOf('day');
  if (operator === 'Today') return { start: today, end: today.plus({ days: 1 }) };
  if (operator === 'Yesterday') return { start: today.minus({ days: 1 }), end: today };
  if (operator === 'PreviousXDays') return { start: today.minus({ days }), end: today };
  if (operator === 'PreviousXDaysToDate') return { start: today.minus({ days }), end: local };
  const toDate = /^Previous(Week|Month|Quarter|Year)ToDate$/.exec(operator);
  if (toDate) {
    const unit = PERIOD_UNITS[toDate[1] as string] as DateTimeUnit;
    return { start: local.startOf(unit, { useLocaleWeeks: false }), end: local };
  }
  const previous = /^Previous(Week|Month|Quarter|Year)$/.exec(operator);
  if (previous) {
    const unit = PERIOD_UNITS[previous[1] as string] as DateTimeUnit;
    const current = local.startOf(unit, { useLocaleWeeks: false });
    return { start: current.minus({ [unit]: 1 }), end: current };
  }
  return undefined;
}

const knownZones = new Map<string, boolean>();

/**
 * Whether `zone` is an IANA zone luxon understands (remembered: every query asks). Canonical names
 * are recognized without luxon, which would build a date formatter and page in ICU's locale data
 * for queries that compute no date.
 */
export function isValidZone(zone: string): boolean {
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    valid = isCanonicalTimeZone(zone) || DateTime.now().setZone(zone).isValid;
    if (knownZones.size < 1000) knownZones.set(zone, valid);
  }
  return valid;
}
