import type { DateTime } from 'luxon';
import { ValidationError } from '../errors/canopy-error';
import type { Operator } from '../query/operators';
import { type EvaluationContext, nowIn } from './time-zone';

/** An operator describing a period relative to now (`Today`, `PreviousXDays`…). */
export type PeriodOperator = Extract<
  Operator,
  | 'Today'
  | 'Yesterday'
  | 'PreviousWeek'
  | 'PreviousMonth'
  | 'PreviousQuarter'
  | 'PreviousYear'
  | 'PreviousWeekToDate'
  | 'PreviousMonthToDate'
  | 'PreviousQuarterToDate'
  | 'PreviousYearToDate'
  | 'PreviousXDays'
  | 'PreviousXDaysToDate'
>;

/**
 * A half-open period `[start, end)`. `endIsNow` marks "…ToDate" periods, which end at the current
 * instant (for calendar dates: today included).
 */
export interface Period {
  start: DateTime;
  end: DateTime;
  endIsNow: boolean;
}

const UNITS = {
  PreviousWeek: 'week',
  PreviousMonth: 'month',
  PreviousQuarter: 'quarter',
  PreviousYear: 'year',
  PreviousWeekToDate: 'week',
  PreviousMonthToDate: 'month',
  PreviousQuarterToDate: 'quarter',
  PreviousYearToDate: 'year',
} as const;

function dayCount(operator: Operator, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ValidationError(
      `Operator '${operator}' expects a non-negative integer number of days, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/**
 * The period of a relative date operator, computed in the caller's time zone: days start at
 * local midnight, weeks on Monday, quarters are calendar quarters.
 *
 * @example
 * // caller in Europe/Paris, now = 2024-03-15T10:00Z → [2024-03-15T00:00+01:00, 2024-03-16T00:00+01:00)
 * getPeriod('Today', undefined, { timezone: 'Europe/Paris', now });
 */
export function getPeriod(
  operator: PeriodOperator,
  value: unknown,
  context: EvaluationContext,
): Period {
  const now = nowIn(context);
  const today = now.startOf('day');
  switch (operator) {
    case 'Today':
      return { start: today, end: today.plus({ days: 1 }), endIsNow: false };
    case 'Yesterday':
      return { start: today.minus({ days: 1 }), end: today, endIsNow: false };
    case 'PreviousXDays':
      return {
        start: today.minus({ days: dayCount(operator, value) }),
        end: today,
        endIsNow: false,
      };
    case 'PreviousXDaysToDate':
      return { start: today.minus({ days: dayCount(operator, value) }), end: now, endIsNow: true };
    case 'PreviousWeek':
    case 'PreviousMonth':
    case 'PreviousQuarter':
    case 'PreviousYear': {
      const current = now.startOf(UNITS[operator]);
      return {
        start: current.minus({ [`${UNITS[operator]}s`]: 1 }),
        end: current,
        endIsNow: false,
      };
    }
    default:
      return { start: now.startOf(UNITS[operator]), end: now, endIsNow: true };
  }
}

/** Whether an operator is a relative period. */
export function isPeriodOperator(operator: Operator): operator is PeriodOperator {
  return operator === 'Today' || operator === 'Yesterday' || operator.startsWith('Previous');
}
