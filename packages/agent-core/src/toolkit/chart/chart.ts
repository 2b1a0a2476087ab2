/** Time buckets of time-based charts. */
export type ChartTimeRange = 'Day' | 'Week' | 'Month' | 'Quarter' | 'Year';

/** A single figure, optionally compared to the previous period. */
export interface ValueChart {
  countCurrent: number;
  countPrevious?: number;
}

/** Label → value pairs (distribution and leaderboard charts). */
export type DistributionChart = Array<{ key: string; value: number }>;

/** One value per time bucket (`null`: the bucket's points carry no number). */
export type TimeBasedChart = Array<{ label: string; values: { value: number | null } }>;

/** Several lines over the same time buckets. */
export interface MultipleTimeBasedChart {
  labels: string[] | null;
  values: Array<{ key: string; values: Array<number | null> }> | null;
}

/** A percentage: the bare number (agent-http-protocol §10.2), e.g. `42.5`. */
export type PercentageChart = number;

/** A value and the objective it is measured against. */
export interface ObjectiveChart {
  value: number;
  objective: number;
}

/** Leaderboard: a distribution sorted by value, descending. */
export type LeaderboardChart = DistributionChart;

/** What rendering a chart produces. */
export type Chart =
  | ValueChart
  | DistributionChart
  | TimeBasedChart
  | MultipleTimeBasedChart
  | PercentageChart
  | ObjectiveChart
  | LeaderboardChart
  | unknown;
