import type { DateTime } from 'luxon';

import type { ChartTimeRange } from './chart';

/** The luxon unit of each chart time range. */
export const TIME_UNITS = {
  Day: 'day',
  Week: 'week',
  Month: 'month',
  Quarter: 'quarter',
  Year: 'year',
} as const;

/**
 * The label of the period starting at `date` (agent-http-protocol §10.1): `dd/MM/yyyy`,
 * `W<week>-<week year>`, `Jan 24`, `Q<quarter>-<year>`, `<year>` — the one time bucketing of
 * charts, shared by the customizer's chart results and the REST Line charts.
 */
export function periodLabel(date: DateTime, range: ChartTimeRange): string {
  switch (range) {
    case 'Day':
      return date.toFormat('dd/MM/yyyy');
    case 'Week':
      return `W${date.weekNumber}-${date.weekYear}`;
    case 'Month':
      return date.setLocale('en-US').toFormat('LLL yy');
    case 'Quarter':
      return `Q${date.quarter}-${date.year}`;
    case 'Year':
      return String(date.year);
  }
}

/** The start of the period of `range` holding `date`. */
export function periodStart(date: DateTime, range: ChartTimeRange): DateTime {
  return date.startOf(TIME_UNITS[range]);
}

/** Every period start of `range` from `first` to `last` (both period starts), ascending. */
export function* eachPeriod(
  first: DateTime,
  last: DateTime,
  range: ChartTimeRange,
): Generator<DateTime> {
  const unit = TIME_UNITS[range];
  for (
    let cursor = first;
    cursor.toMillis() <= last.toMillis();
    cursor = cursor.plus({ [`${unit}s`]: 1 }).startOf(unit)
  ) {
    yield cursor;
  }
}
