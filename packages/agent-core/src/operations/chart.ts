import type { ChartTimeRange } from '../toolkit/chart/chart';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import { Aggregation, type AggregationOperation } from '../toolkit/query/aggregation';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { Filter } from '../toolkit/query/filter';
import { assertChartAllowed } from './charts/chart-permission';
import { hasPreviousPeriod, shiftToPreviousPeriod } from './charts/previous-period';
import { buildTimeSeries } from '../toolkit/chart/time-series';
import { injectContextVariables } from './permissions/context-variables';
import { parseFilters } from './query/filters';
import { type OperationCaller, type OperationContext, findCollection } from './context';

const AGGREGATORS = new Set(['Count', 'Sum', 'Avg', 'Max', 'Min']);
const TIME_RANGES = new Set(['Day', 'Week', 'Month', 'Quarter', 'Year']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

interface ChartRequest {
  context: OperationContext;
  who: OperationCaller;
  collection: Collection;
  body: Record<string, unknown>;
  filter: Filter;
  aggregation: Aggregation;
}

/**
 * A dashboard chart on a collection (agent-http-protocol §10.1): Value, Objective, Pie, Line and
 * Leaderboard. `received` is the chart as the caller sent it: non-privileged callers may only run
 * the charts saved in their rendering (§15.3), compared before context variables are injected.
 * Returns the chart's value (the adapter wraps it in the stats envelope).
 */
export async function runChart(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  received: Record<string, unknown>,
): Promise<unknown> {
  const rendering = await context.permissions.getRendering(who.claims);
  assertChartAllowed(who.claims, rendering, received);
  const variables = {
    ...(await context.permissions.getContextVariables(who.claims)),
    ...(isObject(received.contextVariables) ? received.contextVariables : {}),
  };
  const body = { ...received };
  for (const key of ['filter', 'aggregator', 'timeRange', 'objective', 'limit'] as const) {
    if (body[key] !== undefined) body[key] = injectContextVariables(body[key], variables);
  }
  const aggregator = String(body.aggregator ?? 'Count');
  if (!AGGREGATORS.has(aggregator)) {
    throw new ValidationError(
      `Invalid aggregator "${aggregator}": expected one of Count, Sum, Avg, Max, Min`,
    );
  }
  const tree = parseFilters(collection, body.filter ?? body.filters);
  const scope = await context.permissions.getScope(who.claims, collection);
  const chart: ChartRequest = {
    context,
    who,
    collection,
    body,
    filter: new Filter({ conditionTree: ConditionTreeFactory.intersect(tree, scope) }),
    aggregation: new Aggregation({
      operation: aggregator as AggregationOperation,
      field: text(body.aggregateFieldName),
    }),
  };
  let value: unknown;
  switch (body.type) {
    case 'Value': {
      const countCurrent = await aggregateValue(chart, chart.filter);
      if (tree && hasPreviousPeriod(tree)) {
        const previous = new Filter({
          conditionTree: ConditionTreeFactory.intersect(
            shiftToPreviousPeriod(collection, tree, who.caller.timezone),
            scope,
          ),
        });
        value = { countCurrent, countPrevious: await aggregateValue(chart, previous) };
      } else {
        value = { countCurrent };
      }
      break;
    }
    case 'Objective':
      value = { value: await aggregateValue(chart, chart.filter) };
      break;
    case 'Pie':
      value = await pie(chart);
      break;
    case 'Line':
      value = await line(chart);
      break;
    case 'Leaderboard':
      value = await leaderboard(chart, scope);
      break;
    default:
      throw new ValidationError(`Invalid Chart type "${String(body.type)}"`);
  }
  return value;
}

async function aggregateValue(chart: ChartRequest, filter: Filter): Promise<number> {
  const [row] = await chart.collection.aggregate(chart.who.caller, filter, chart.aggregation);
  return Number(row?.value ?? 0);
}

async function pie(chart: ChartRequest) {
  const field = text(chart.body.groupByFieldName);
  if (!field) throw new ValidationError('A Pie chart needs "groupByFieldName"');
  const rows = await chart.collection.aggregate(
    chart.who.caller,
    chart.filter,
    chart.aggregation.override({ groups: [{ field }] }),
  );
  return rows.map((row) => ({ key: row.group[field], value: Number(row.value ?? 0) }));
}

async function line(chart: ChartRequest) {
  const field = text(chart.body.groupByFieldName);
  const range = String(chart.body.timeRange ?? '');
  if (!field) throw new ValidationError('A Line chart needs "groupByFieldName"');
  if (!TIME_RANGES.has(range)) {
    throw new ValidationError(
      `Invalid timeRange "${range}": expected Day, Week, Month, Quarter or Year`,
    );
  }
  const rows = await chart.collection.aggregate(
    chart.who.caller,
    chart.filter,
    chart.aggregation.override({ groups: [{ field, operation: range as ChartTimeRange }] }),
  );
  return buildTimeSeries(rows, field, range as ChartTimeRange, chart.who.caller.timezone);
}

/** Most rows a leaderboard may ask for: like `page[size]`, a bound on what one answer holds. */
export const MAX_LEADERBOARD_LIMIT = 10_000;

const LEADERBOARD_ERROR =
  'Failed to generate leaderboard chart: parameters do not match pre-requisites';

async function leaderboard(chart: ChartRequest, scope: Filter['conditionTree']) {
  const { collection, body, context } = chart;
  const relationName = text(body.relationshipFieldName);
  const label = text(body.labelFieldName);
  const relation = relationName ? collection.schema.fields[relationName] : undefined;
  // A number, or its decimal text as dashboards store it; `true`, `[]` or `""` are not limits.
  const limit =
    body.limit === undefined || body.limit === null
      ? undefined
      : typeof body.limit === 'number' ||
          (typeof body.limit === 'string' && /^\s*\d+\s*$/.test(body.limit))
        ? Number(body.limit)
        : Number.NaN;
  if (!label) throw new ValidationError(LEADERBOARD_ERROR);
  if (
    limit !== undefined &&
    (!Number.isInteger(limit) || limit <= 0 || limit > MAX_LEADERBOARD_LIMIT)
  ) {
    throw new ValidationError(
      `Invalid leaderboard limit ${JSON.stringify(body.limit)}: expected an integer from 1 to ${MAX_LEADERBOARD_LIMIT}`,
    );
  }
  const field = text(body.aggregateFieldName);
  if (relation?.type === 'OneToMany') {
    const target = findCollection(context, relation.foreignCollection);
    const inverse = Object.entries(target.schema.fields).find(
      ([, candidate]) =>
        candidate.type === 'ManyToOne' &&
        candidate.foreignCollection === collection.name &&
        candidate.foreignKey === relation.originKey,
    )?.[0];
    if (!inverse) throw new ValidationError(LEADERBOARD_ERROR);
    return rank(chart, target, inverse, field, label, scope, limit);
  }
  if (relation?.type === 'ManyToMany') {
    const through = findCollection(context, relation.throughCollection);
    const toOne = (foreignCollection: string, foreignKey: string) =>
      Object.entries(through.schema.fields).find(
        ([, candidate]) =>
          candidate.type === 'ManyToOne' &&
          candidate.foreignCollection === foreignCollection &&
          candidate.foreignKey === foreignKey,
      )?.[0];
    const origin = toOne(collection.name, relation.originKey);
    const targetRelation = toOne(relation.foreignCollection, relation.foreignKey);
    if (!origin || !targetRelation) throw new ValidationError(LEADERBOARD_ERROR);
    return rank(
      chart,
      through,
      origin,
      field ? `${targetRelation}:${field}` : null,
      label,
      scope,
      limit,
    );
  }
  throw new ValidationError(LEADERBOARD_ERROR);
}

async function rank(
  chart: ChartRequest,
  source: Collection,
  originRelation: string,
  field: string | null,
  label: string,
  scope: Filter['conditionTree'],
  limit: number | undefined,
) {
  const group = `${originRelation}:${label}`;
  const rows = await source.aggregate(
    chart.who.caller,
    new Filter({ conditionTree: scope ? scope.nest(originRelation) : null }),
    new Aggregation({ operation: chart.aggregation.operation, field, groups: [{ field: group }] }),
    limit,
  );
  return rows.map((row) => ({ key: row.group[group] ?? null, value: Number(row.value ?? 0) }));
}
