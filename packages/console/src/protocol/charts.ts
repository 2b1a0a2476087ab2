/**
 * Charts (agent protocol §10): the definitions a dashboard stores, and the mapping of each chart
 * answer to what the console draws. Plain TypeScript, no React.
 */
import { CHART_KINDS, type ChartKind } from '@canopy/platform-protocol';
import type { ConditionTree } from './conditions';

export { CHART_KINDS, type ChartKind };

export type CollectionChartType = 'Value' | 'Objective' | 'Pie' | 'Line' | 'Leaderboard';
export type Aggregator = 'Count' | 'Sum' | 'Avg' | 'Max' | 'Min';
export type TimeRange = 'Day' | 'Week' | 'Month' | 'Quarter' | 'Year';

/**
 * A chart computed by the agent from a collection (`POST /stats/{c}`, §10.1), built in the UI.
 * Exactly this object is the request body and what the rendering's `stats` hold, so that the
 * agent's chart permission (§15.3) matches it for members of level `user`.
 */
export interface CollectionChartQuery {
  type: CollectionChartType;
  sourceCollectionName: string;
  aggregator: Aggregator;
  aggregateFieldName: string | null;
  groupByFieldName?: string;
  timeRange?: TimeRange;
  filter?: ConditionTree;
  objective?: number;
  relationshipFieldName?: string;
  labelFieldName?: string;
  limit?: number;
}

/** A chart declared in the agent's code (`/_charts/{chart}` or `/_charts/{c}/{chart}`, §10.2). */
export interface ApiChartSource {
  chart: string;
  /** For collection charts: the collection and the record they are computed for. */
  collection?: string;
  recordId?: string;
  /** How to draw the answer; `smart` reads the raw answer (`GET`). */
  kind: ChartKind;
}

export type ChartSource =
  { source: 'collection'; query: CollectionChartQuery } | ({ source: 'api' } & ApiChartSource);

/** One chart on a dashboard, with its place in the grid. */
export interface DashboardItem {
  id: string;
  title: string;
  /** Grid columns out of 12: 3, 4, 6, 8 or 12. */
  width: number;
  chart: ChartSource;
}

export interface Dashboard {
  items: DashboardItem[];
  updatedAt?: string | null;
}

/** What a chart looks like once its answer is read. */
export type ChartData =
  | { kind: 'value'; current: number; previous?: number; change?: number }
  | { kind: 'distribution' | 'leaderboard'; rows: { key: string; value: number }[] }
  | { kind: 'time'; rows: { label: string; value: number }[] }
  | {
      kind: 'multiple-time';
      series: string[];
      rows: ({ label: string } & Record<string, number | string | null>)[];
    }
  | { kind: 'percentage'; value: number }
  | { kind: 'objective'; value: number; objective: number; ratio: number }
  /** A smart chart answering named figures (`{outOfStock: 3, timezone: "Europe/Paris"}`). */
  | { kind: 'facts'; rows: { key: string; value: string | number | boolean | null }[] }
  | { kind: 'smart'; json: unknown };

/** The kind a collection chart's answer is drawn as. */
export function kindOfQuery(query: CollectionChartQuery): ChartKind {
  switch (query.type) {
    case 'Value':
      return 'value';
    case 'Objective':
      return 'objective';
    case 'Pie':
      return 'distribution';
    case 'Line':
      return 'time';
    case 'Leaderboard':
      return 'leaderboard';
  }
}

function shapeError(kind: ChartKind, detail: string): Error {
  return new Error(`The agent's answer is not a ${kind} chart: ${detail}.`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function num(kind: ChartKind, value: unknown, what: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw shapeError(kind, `${what} is ${JSON.stringify(value)}, not a number`);
  }
  return n;
}

/** The key of a group: `null` (records without a value) is shown as "(empty)". */
const keyLabel = (key: unknown): string =>
  key === null || key === undefined || key === '' ? '(empty)' : String(key);

/**
 * Reads a chart answer (the `value` of the `stats` envelope, or a raw smart answer) as `kind`;
 * `objective` is the target of a UI-built objective chart, whose answer carries none.
 * @throws Error saying what does not match, so that a mis-declared chart shows a clear message.
 */
export function toChartData(kind: ChartKind, value: unknown, objective?: number): ChartData {
  switch (kind) {
    case 'value': {
      if (!isRecord(value) || !('countCurrent' in value)) {
        throw shapeError(kind, 'expected {countCurrent, countPrevious?}');
      }
      const current = num(kind, value.countCurrent ?? 0, 'countCurrent');
      if (value.countPrevious === undefined || value.countPrevious === null) {
        return { kind, current };
      }
      const previous = num(kind, value.countPrevious, 'countPrevious');
      return {
        kind,
        current,
        previous,
        ...(previous !== 0 ? { change: (current - previous) / Math.abs(previous) } : {}),
      };
    }
    case 'distribution':
    case 'leaderboard': {
      if (!Array.isArray(value)) throw shapeError(kind, 'expected a list of {key, value}');
      const rows = value.map((row, index) => {
        if (!isRecord(row) || !('value' in row)) {
          throw shapeError(kind, `row ${index + 1} has no value`);
        }
        return { key: keyLabel(row.key), value: num(kind, row.value, `row ${index + 1}`) };
      });
      if (kind === 'leaderboard') rows.sort((a, b) => b.value - a.value);
      return { kind, rows };
    }
    case 'time': {
      if (!Array.isArray(value)) throw shapeError(kind, 'expected a list of {label, values}');
      return {
        kind,
        rows: value.map((row, index) => {
          if (!isRecord(row) || typeof row.label !== 'string' || !isRecord(row.values)) {
            throw shapeError(kind, `point ${index + 1} has no label and values`);
          }
          return {
            label: row.label,
            value: num(kind, row.values.value ?? 0, `point ${row.label}`),
          };
        }),
      };
    }
    case 'multiple-time': {
      if (!isRecord(value) || !Array.isArray(value.labels) || !Array.isArray(value.values)) {
        throw shapeError(kind, 'expected {labels, values: [{key, values}]}');
      }
      const labels = value.labels.map(String);
      const series = value.values.map((line, index) => {
        if (!isRecord(line) || !Array.isArray(line.values)) {
          throw shapeError(kind, `series ${index + 1} has no values`);
        }
        return { key: keyLabel(line.key), values: line.values };
      });
      return {
        kind,
        series: series.map((line) => line.key),
        rows: labels.map((label, at) => {
          const row: { label: string } & Record<string, number | string | null> = { label };
          for (const line of series) {
            const point = line.values[at];
            row[line.key] =
              point === null || point === undefined ? null : num(kind, point, line.key);
          }
          return row;
        }),
      };
    }
    case 'percentage':
      return { kind, value: num(kind, value, 'the answer') };
    case 'objective': {
      if (!isRecord(value)) throw shapeError(kind, 'expected {value, objective}');
      const reached = num(kind, value.value ?? 0, 'value');
      // `POST /stats` answers `{value}` only: the objective is the chart's own (§10.1).
      const target =
        value.objective === undefined || value.objective === null
          ? (objective ?? 0)
          : num(kind, value.objective, 'objective');
      return { kind, value: reached, objective: target, ratio: target ? reached / target : 0 };
    }
    case 'smart':
      return smartChartData(value);
  }
}

/** The result kinds a smart answer is tried as, the most specific shape first. */
const SMART_SHAPES: ChartKind[] = [
  'percentage',
  'value',
  'objective',
  'multiple-time',
  'time',
  'distribution',
];

/**
 * Reads a smart chart's answer (any structure the agent's code returns): when it has the shape of
 * one of the chart result builder's results (a bare number, `{countCurrent}`, `{value,
 * objective}`, `{labels, values}`, `[{label, values}]`, `[{key, value}]`), it is drawn as that
 * chart; a flat object of figures is listed as named facts; anything else stays raw JSON.
 */
export function smartChartData(value: unknown): ChartData {
  for (const kind of SMART_SHAPES) {
    if (kind === 'percentage' && typeof value !== 'number') continue;
    if (kind === 'objective' && !(isRecord(value) && 'objective' in value)) continue;
    if ((kind === 'time' || kind === 'distribution') && !(Array.isArray(value) && value.length))
      continue;
    try {
      return toChartData(kind, value);
    } catch {
      // Not this shape: try the next one.
    }
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    const scalar = (member: unknown): member is string | number | boolean | null =>
      member === null || ['string', 'number', 'boolean'].includes(typeof member);
    if (entries.length > 0 && entries.every(([, member]) => scalar(member))) {
      return {
        kind: 'facts',
        rows: entries.map(([key, member]) => ({
          key,
          value: member as string | number | boolean | null,
        })),
      };
    }
  }
  return { kind: 'smart', json: value };
}

/**
 * A chart label shortened to about `max` characters for an axis or a narrow column (the full text
 * goes in a tooltip). An e-mail address keeps its local part, which tells people apart, and drops
 * its domain first (`ada.lovelace@example.com` → `ada.lovelace@…`); other text is cut at the end.
 */
export function fitLabel(label: string, max: number): string {
  if (label.length <= max) return label;
  const at = label.lastIndexOf('@');
  if (at > 0 && !/\s/.test(label)) {
    const local = label.slice(0, at);
    if (local.length + 2 <= max) return `${local}@…`;
    return `${local.slice(0, Math.max(1, max - 1))}…`;
  }
  return `${label.slice(0, Math.max(1, max - 1))}…`;
}

/** The body of `POST /stats/{c}` for a UI-built chart: the query without empty members. */
export function statsBody(query: CollectionChartQuery): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(query)) {
    if (member !== undefined && member !== null && member !== '') body[key] = member;
  }
  // The agent's permission hash ignores null members, and Count charts need the key.
  body.aggregateFieldName = query.aggregateFieldName ?? null;
  return body;
}

/**
 * Checks a UI-built chart before it is saved.
 * @returns the first problem in words, or `undefined` when the chart can be computed.
 */
export function chartQueryProblem(query: CollectionChartQuery): string | undefined {
  if (!query.sourceCollectionName) return 'Choose a collection.';
  if (query.aggregator !== 'Count' && !query.aggregateFieldName) {
    return `A ${query.aggregator} chart needs a field to aggregate.`;
  }
  if ((query.type === 'Pie' || query.type === 'Line') && !query.groupByFieldName) {
    return `A ${query.type === 'Pie' ? 'distribution' : 'time-based'} chart needs a group-by field.`;
  }
  if (query.type === 'Line' && !query.timeRange) return 'Choose the time range (day … year).';
  if (query.type === 'Objective' && !(typeof query.objective === 'number' && query.objective > 0)) {
    return 'An objective chart needs a positive objective.';
  }
  if (query.type === 'Leaderboard') {
    if (!query.relationshipFieldName) return 'A leaderboard ranks through a to-many relation.';
    if (!query.labelFieldName) return 'A leaderboard needs the label field.';
    if (!(typeof query.limit === 'number' && query.limit > 0)) return 'Give the number of rows.';
  }
  return undefined;
}
