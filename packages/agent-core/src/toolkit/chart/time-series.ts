import { DateTime } from 'luxon';

import type { ChartTimeRange } from './chart';
import { eachPeriod, periodLabel, periodStart } from './time-buckets';

function toDate(value: unknown, timezone: string): DateTime | null {
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone: timezone });
  if (typeof value !== 'string') return null;
  const parsed = DateTime.fromISO(value, { zone: timezone });
  return parsed.isValid ? parsed : null;
}

/**
 * A Line chart (agent-http-protocol §10.1) from aggregation rows grouped by period start: one point
 * per period from the first to the last period with data, gaps filled with 0, ascending; empty
 * groups dropped.
 */
export function buildTimeSeries(
  rows: readonly { value: unknown; group: Record<string, unknown> }[],
  field: string,
  range: ChartTimeRange,
  timezone: string,
): { label: string; values: { value: number } }[] {
  const byPeriod = new Map<number, number>();
  for (const row of rows) {
    const date = toDate(row.group[field], timezone);
    if (!date) continue;
    const start = periodStart(date, range).toMillis();
    byPeriod.set(start, (byPeriod.get(start) ?? 0) + Number(row.value ?? 0));
  }
  if (byPeriod.size === 0) return [];
  const starts = [...byPeriod.keys()];
  const last = Math.max(...starts);
  const points: { label: string; values: { value: number } }[] = [];
  const first = DateTime.fromMillis(Math.min(...starts), { zone: timezone });
  for (const current of eachPeriod(first, DateTime.fromMillis(last, { zone: timezone }), range)) {
    points.push({
      label: periodLabel(current, range),
      values: { value: byPeriod.get(current.toMillis()) ?? 0 },
    });
  }
  return points;
}
