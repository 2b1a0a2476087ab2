import { DateTime } from 'luxon';

import type { ChartTimeRange } from '../../toolkit/chart/chart';

const UNITS = {
  Day: 'day',
  Week: 'week',
  Month: 'month',
  Quarter: 'quarter',
  Year: 'year',
} as const;

/** The label of the period starting at `date` (§10.1 label formats). */
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

function toDate(value: unknown, timezone: string): DateTime | null {
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone: timezone });
  if (typeof value !== 'string') return null;
  const parsed = DateTime.fromISO(value, { zone: timezone });
  return parsed.isValid ? parsed : null;
}

/**
 * A Line chart (§10.1) from aggregation rows grouped by period start: one point per period from
 * the first to the last period with data, gaps filled with 0, ascending; empty groups dropped.
 */
export function buildTimeSeries(
  rows: readonly { value: unknown; group: Record<string, unknown> }[],
  field: string,
  range: ChartTimeRange,
  timezone: string,
): { label: string; values: { value: number } }[] {
  const unit = UNITS[range];
  const byPeriod = new Map<number, number>();
  for (const row of rows) {
    const date = toDate(row.group[field], timezone);
    if (!date) continue;
    const start = date.startOf(unit).toMillis();
    byPeriod.set(start, (byPeriod.get(start) ?? 0) + Number(row.value ?? 0));
  }
  if (byPeriod.size === 0) return [];
  const starts = [...byPeriod.keys()];
  const last = Math.max(...starts);
  const points: { label: string; values: { value: number } }[] = [];
  for (
    let current = DateTime.fromMillis(Math.min(...starts), { zone: timezone });
    current.toMillis() <= last;
    current = current.plus({ [`${unit}s`]: 1 }).startOf(unit)
  ) {
    points.push({
      label: periodLabel(current, range),
      values: { value: byPeriod.get(current.toMillis()) ?? 0 },
    });
  }
  return points;
}
