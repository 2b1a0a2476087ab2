import { type DateTime } from 'luxon';
import type {
  ChartTimeRange,
  DistributionChart,
  LeaderboardChart,
  MultipleTimeBasedChart,
  ObjectiveChart,
  PercentageChart,
  TimeBasedChart,
  ValueChart,
} from '../../toolkit/chart/chart';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import { eachPeriod, periodLabel, periodStart } from '../../toolkit/chart/time-buckets';
import { toDateTime } from '../../toolkit/evaluator/time-zone';

/** A point of a time-based chart. */
export interface TimeBasedPoint {
  date: Date | string;
  value: number | null;
}

const RANGES: ChartTimeRange[] = ['Day', 'Week', 'Month', 'Quarter', 'Year'];
/**
 * Builds chart results (spec §4.4). Dates are bucketed in the caller's time zone.
 *
 * @example
 * agent.addChart('revenue', async (context, resultBuilder) =>
 *   resultBuilder.timeBased('Month', [{ date: '2024-01-15', value: 120 }, { date: '2024-03-02', value: 80 }]));
 * // [{ label: 'Jan 24', values: { value: 120 } }, { label: 'Feb 24', values: { value: 0 } }, { label: 'Mar 24', values: { value: 80 } }]
 */
export class ChartResultBuilder {
  constructor(private readonly timezone = 'UTC') {}

  /** A single figure, optionally compared with the previous period. */
  value(value: number, previousValue?: number): ValueChart {
    return previousValue === undefined
      ? { countCurrent: value }
      : { countCurrent: value, countPrevious: previousValue };
  }

  /** Label → value pairs. */
  distribution(obj: Record<string, number>): DistributionChart {
    return Object.entries(obj).map(([key, value]) => ({ key, value }));
  }

  /** One value per time bucket, every bucket between the first and last date included. */
  timeBased(
    timeRange: ChartTimeRange,
    points: TimeBasedPoint[] | Record<string, number | null>,
  ): TimeBasedChart {
    const list = Array.isArray(points)
      ? points
      : Object.entries(points).map(([date, value]) => ({ date, value }));
    // A bucket without any point is 0; one whose points are all `null` stays `null` (missing
    // data), as in `multipleTimeBased`.
    return this.bucket(timeRange, list).map(({ label: key, value }) => ({
      label: key,
      values: { value: value === undefined ? 0 : value },
    }));
  }

  /** Several lines over the same time buckets; buckets without data are `null`. */
  multipleTimeBased(
    timeRange: ChartTimeRange,
    dates: Array<Date | string>,
    lines: Array<{ label: string; values: Array<number | null> }>,
  ): MultipleTimeBasedChart {
    if (!dates?.length || !lines?.length) return { labels: null, values: null };
    let labels: string[] = [];
    const values = lines.map((line) => {
      const buckets = this.bucket(
        timeRange,
        dates.map((date, index) => ({ date, value: line.values[index] ?? null })),
      );
      labels = buckets.map((bucket) => bucket.label);
      return { key: line.label, values: buckets.map((bucket) => bucket.value ?? null) };
    });
    return { labels, values };
  }

  /** A percentage, answered as the bare number (agent-http-protocol §10.2). */
  percentage(value: number): PercentageChart {
    return value;
  }

  /** A value and its objective. */
  objective(value: number, objective: number): ObjectiveChart {
    return { value, objective };
  }

  /** Label → value pairs sorted by value, descending. */
  leaderboard(obj: Record<string, number>): LeaderboardChart {
    return this.distribution(obj).sort((a, b) => b.value - a.value);
  }

  /** Any custom structure, passed through. */
  smart<T>(data: T): T {
    return data;
  }

  private bucket(
    range: ChartTimeRange,
    points: TimeBasedPoint[],
  ): Array<{ label: string; value: number | null | undefined }> {
    if (!RANGES.includes(range)) {
      throw new ValidationError(
        `Invalid time range '${String(range)}'. Expected one of: ${RANGES.join(', ')}.`,
      );
    }
    const sums = new Map<string, number | null>();
    let first: DateTime | null = null;
    let last: DateTime | null = null;
    for (const point of points) {
      const date = toDateTime(point.date, this.timezone);
      if (!date)
        throw new ValidationError(`Invalid date in chart data: ${JSON.stringify(point.date)}.`);
      const start = periodStart(date, range);
      if (!first || start < first) first = start;
      if (!last || start > last) last = start;
      const key = periodLabel(start, range);
      const current = sums.get(key) ?? null;
      sums.set(key, typeof point.value === 'number' ? (current ?? 0) + point.value : current);
    }
    // `undefined`: no point fell in the bucket; `null`: points fell in it, none with a number.
    const buckets: Array<{ label: string; value: number | null | undefined }> = [];
    if (!first || !last) return buckets;
    for (const cursor of eachPeriod(first, last, range)) {
      const key = periodLabel(cursor, range);
      buckets.push({ label: key, value: sums.get(key) });
    }
    return buckets;
  }
}
