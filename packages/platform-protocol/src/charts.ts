/**
 * Charts as the platform stores them: the keys agents compare a requested chart on (platform
 * protocol 5.3) and the kinds of chart a dashboard draws (public API, dashboards).
 */

/** The keys agents compare charts on (platform protocol 5.3); a stored chart has no others. */
export const CHART_KEYS = [
  'type',
  'apiRoute',
  'smartRoute',
  'query',
  'connectionName',
  'labelFieldName',
  'filter',
  'sourceCollectionName',
  'aggregator',
  'aggregateFieldName',
  'groupByFieldName',
  'relationshipFieldName',
  'limit',
  'timeRange',
  'objective',
  'numeratorChartId',
  'denominatorChartId',
] as const;

/** One of {@link CHART_KEYS}. */
export type ChartKey = (typeof CHART_KEYS)[number];

/** How a dashboard chart is drawn: one per value shape of the agent's chart results. */
export const CHART_KINDS = [
  'value',
  'distribution',
  'time',
  'multiple-time',
  'percentage',
  'objective',
  'leaderboard',
  'smart',
] as const;

/** One of {@link CHART_KINDS}. */
export type ChartKind = (typeof CHART_KINDS)[number];
