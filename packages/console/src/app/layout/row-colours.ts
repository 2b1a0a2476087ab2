/**
 * Row colouring rules of a team's layout (`TableLayout.rowColours`, public API §7): a row takes the
 * colour of the first rule whose condition tree it matches. The tree is evaluated here, in the
 * browser, on the row's values, with the operators a condition tree allows (data-semantics §2.2;
 * dates as data-semantics §2.5 says: periods such as `today` or `previous_week` in the user's time
 * zone, weeks from Monday). A rule
 * the Console cannot decide for a row — a field the row does not hold (the user may not see it, or
 * the column is not loaded), an operator it does not know, a bad value — is skipped, never an
 * error. Pure: the time zone and "now" are arguments. Loaded with the first table that has rules
 * (use-row-colours.ts).
 */
import type { PlainConditionTree } from '@canopy/platform-protocol';
import dayjs from 'dayjs';
import timezonePlugin from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezonePlugin);

export interface RowColourRule {
  filter: PlainConditionTree;
  colour: string;
}

/** A row as the table holds it: its own values, and its projected to-one records. */
export interface RowValues {
  values: Record<string, unknown>;
  toOne?: Record<string, { values: Record<string, unknown> } | null>;
}

export interface MatchContext {
  timeZone: string;
  /** Epoch milliseconds "now". */
  now: number;
  /** An operator in words (`is greater than`), for the row's label; the wire's name without it. */
  operatorLabel?: (operator: string) => string;
}

/** The colour a row takes, and the words that say why (for its title and screen readers). */
export interface RowColour {
  colour: string;
  label: string;
}

/** `true`/`false`, or `undefined`: the rule cannot be decided for this row (it is skipped). */
type Truth = boolean | undefined;

const COLOUR = /^#[0-9a-f]{6}$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** `LessThan` → `less_than`: the wire takes either (platform protocol §5.4). */
export function operatorName(operator: string): string {
  return operator
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The colour of `row`: the first rule it matches, or undefined. */
export function rowColour(
  rules: readonly RowColourRule[],
  row: RowValues,
  context: MatchContext,
): RowColour | undefined {
  for (const rule of rules) {
    if (!COLOUR.test(rule.colour)) continue;
    if (matchTree(rule.filter, row, context) === true) {
      return {
        colour: rule.colour,
        label: `Highlighted: ${describeTree(rule.filter, context.operatorLabel)}`,
      };
    }
  }
  return undefined;
}

/** A rule's condition in words: `status is pending and total is at least 100`. */
export function describeTree(
  tree: PlainConditionTree,
  label: (operator: string) => string = (operator) => operator.replace(/_/g, ' '),
): string {
  if ('aggregator' in tree) {
    const joiner = tree.aggregator.toLowerCase() === 'or' ? ' or ' : ' and ';
    return tree.conditions.map((condition) => describeTree(condition, label)).join(joiner);
  }
  const value =
    tree.value === undefined || tree.value === null
      ? ''
      : ` ${Array.isArray(tree.value) ? tree.value.join(', ') : String(tree.value)}`;
  return `${tree.field.replace(/[_:]/g, ' ')} ${label(operatorName(tree.operator))}${value}`;
}

/** Whether `row` matches `tree` (undefined: cannot be told). */
export function matchTree(tree: PlainConditionTree, row: RowValues, context: MatchContext): Truth {
  if ('aggregator' in tree) {
    const results = tree.conditions.map((condition) => matchTree(condition, row, context));
    if (results.some((result) => result === undefined)) return undefined;
    return tree.aggregator.toLowerCase() === 'or' ? results.some(Boolean) : results.every(Boolean);
  }
  const held = fieldValue(row, tree.field);
  if (!held) return undefined;
  if (typeof tree.value === 'string' && /\{\{.*\}\}/.test(tree.value)) return undefined;
  return matchLeaf(operatorName(tree.operator), held.value, tree.value, context);
}

/** The row's value of `field` (`relation:field` for a to-one's field), or undefined if absent. */
function fieldValue(row: RowValues, field: string): { value: unknown } | undefined {
  const colon = field.indexOf(':');
  if (colon < 0) return field in row.values ? { value: row.values[field] } : undefined;
  const relation = field.slice(0, colon);
  const rest = field.slice(colon + 1);
  if (!row.toOne || !(relation in row.toOne)) return undefined;
  const related = row.toOne[relation];
  if (related === null || related === undefined) return { value: null };
  return rest in related.values ? { value: related.values[rest] } : undefined;
}

const isEmpty = (value: unknown) => value === null || value === undefined;
const isBlank = (value: unknown) =>
  isEmpty(value) || (typeof value === 'string' && value.trim() === '');

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function looseEqual(actual: unknown, expected: unknown): boolean {
  if (isEmpty(actual) || isEmpty(expected)) return isEmpty(actual) && isEmpty(expected);
  if (typeof actual === 'boolean' || typeof expected === 'boolean')
    return String(actual) === String(expected);
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a === b;
  if (typeof actual === 'string' && typeof expected === 'string') {
    if (DATE_TIME.test(actual) && DATE_TIME.test(expected))
      return Date.parse(actual) === Date.parse(expected);
    return actual === expected;
  }
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Negative, zero or positive as `actual` orders before, with or after `expected`. */
function order(actual: unknown, expected: unknown, context: MatchContext): number | undefined {
  if (isEmpty(actual) || isEmpty(expected)) return undefined;
  if (typeof actual === 'string' && DATE_TIME.test(actual)) {
    const at = instant(expected, context);
    return at === undefined ? undefined : Date.parse(actual) - at;
  }
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a - b;
  if (typeof actual === 'string' && typeof expected === 'string') {
    return actual < expected ? -1 : actual > expected ? 1 : 0;
  }
  return undefined;
}

/** An instant of a leaf's value: with its offset as written, else in the user's time zone. */
function instant(value: unknown, context: MatchContext): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value);
  const parsed = zoned ? Date.parse(value) : dayjs.tz(value, context.timeZone).valueOf();
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** `%` any text, `_` one character (SQL LIKE), anchored. */
function likePattern(pattern: string, flags: string): RegExp {
  const body = pattern
    .split('')
    .map((char) =>
      char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`, `s${flags}`);
}

function text(actual: unknown, expected: unknown, test: (a: string, b: string) => boolean): Truth {
  if (typeof expected !== 'string') return undefined;
  if (typeof actual !== 'string') return isEmpty(actual) ? false : undefined;
  return test(actual, expected);
}

function matchLeaf(
  operator: string,
  actual: unknown,
  expected: unknown,
  context: MatchContext,
): Truth {
  const lower = (value: string) => value.toLocaleLowerCase();
  switch (operator) {
    case 'present':
      return !isBlank(actual);
    case 'blank':
      return isBlank(actual);
    case 'missing':
      return isEmpty(actual);
    case 'equal':
      return looseEqual(actual, expected);
    case 'not_equal':
      return !looseEqual(actual, expected);
    case 'in':
    case 'not_in': {
      if (!Array.isArray(expected)) return undefined;
      const found = expected.some((item) => looseEqual(actual, item));
      return operator === 'in' ? found : !found;
    }
    case 'less_than':
    case 'greater_than':
    case 'less_than_or_equal':
    case 'greater_than_or_equal': {
      const compared = order(actual, expected, context);
      if (compared === undefined) return isEmpty(actual) ? false : undefined;
      if (operator === 'less_than') return compared < 0;
      if (operator === 'greater_than') return compared > 0;
      return operator === 'less_than_or_equal' ? compared <= 0 : compared >= 0;
    }
    case 'contains':
      return text(actual, expected, (a, b) => a.includes(b));
    case 'i_contains':
      return text(actual, expected, (a, b) => lower(a).includes(lower(b)));
    case 'not_contains':
      return isEmpty(actual) || text(actual, expected, (a, b) => !a.includes(b));
    case 'not_i_contains':
      return isEmpty(actual) || text(actual, expected, (a, b) => !lower(a).includes(lower(b)));
    case 'starts_with':
      return text(actual, expected, (a, b) => a.startsWith(b));
    case 'i_starts_with':
      return text(actual, expected, (a, b) => lower(a).startsWith(lower(b)));
    case 'ends_with':
      return text(actual, expected, (a, b) => a.endsWith(b));
    case 'i_ends_with':
      return text(actual, expected, (a, b) => lower(a).endsWith(lower(b)));
    case 'like':
      return text(actual, expected, (a, b) => likePattern(b, '').test(a));
    case 'i_like':
      return text(actual, expected, (a, b) => likePattern(b, 'i').test(a));
    case 'match':
      try {
        return text(actual, expected, (a, b) => new RegExp(b).test(a));
      } catch {
        return undefined;
      }
    case 'longer_than':
    case 'shorter_than': {
      const length = asNumber(expected);
      if (length === undefined) return undefined;
      if (typeof actual !== 'string') return isEmpty(actual) ? false : undefined;
      return operator === 'longer_than' ? actual.length > length : actual.length < length;
    }
    case 'includes_all':
    case 'includes_none': {
      if (!Array.isArray(expected)) return undefined;
      if (!Array.isArray(actual)) return isEmpty(actual) ? operator === 'includes_none' : undefined;
      const has = (item: unknown) => actual.some((held) => looseEqual(held, item));
      return operator === 'includes_all' ? expected.every(has) : !expected.some(has);
    }
    default:
      return matchDate(operator, actual, expected, context);
  }
}

/** `YYYY-MM-DD` of an instant in `timeZone`. */
function localDate(at: number, timeZone: string): string {
  return dayjs(at).tz(timeZone).format('YYYY-MM-DD');
}

/** A calendar date moved by days or months (`YYYY-MM-DD` in, out). */
function shift(date: string, days: number, months = 0): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1 + months, day + days)).toISOString().slice(0, 10);
}

/** The period of a relative date operator: calendar dates `[from, to)`, or up to now. */
function period(
  operator: string,
  value: unknown,
  today: string,
): { from: string; to: string | 'now' } | undefined {
  if (operator === 'today') return { from: today, to: shift(today, 1) };
  if (operator === 'yesterday') return { from: shift(today, -1), to: today };
  if (operator === 'previous_x_days' || operator === 'previous_x_days_to_date') {
    const days = asNumber(value);
    if (days === undefined || !Number.isInteger(days) || days < 0) return undefined;
    return { from: shift(today, -days), to: operator === 'previous_x_days' ? today : 'now' };
  }
  const match = /^previous_(week|month|quarter|year)(_to_date)?$/.exec(operator);
  if (!match) return undefined;
  const unit = match[1] as 'week' | 'month' | 'quarter' | 'year';
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  let start: string;
  if (unit === 'week') {
    const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    start = shift(today, -((weekday + 6) % 7));
  } else {
    const firstMonth =
      unit === 'month' ? month : unit === 'quarter' ? month - ((month - 1) % 3) : 1;
    start = `${year}-${String(firstMonth).padStart(2, '0')}-01`;
  }
  if (match[2]) return { from: start, to: 'now' };
  const back =
    unit === 'week'
      ? shift(start, -7)
      : shift(start, 0, unit === 'month' ? -1 : unit === 'quarter' ? -3 : -12);
  return { from: back, to: start };
}

function matchDate(
  operator: string,
  actual: unknown,
  expected: unknown,
  context: MatchContext,
): Truth {
  const known =
    ['before', 'after', 'past', 'future', 'before_x_hours_ago', 'after_x_hours_ago'].includes(
      operator,
    ) || period(operator, expected, '2000-01-01') !== undefined;
  if (!known) return undefined;
  if (isEmpty(actual)) return false;
  const dateOnly = typeof actual === 'string' && DATE_ONLY.test(actual);
  const at = dateOnly ? undefined : instant(actual, context);
  if (!dateOnly && at === undefined) return undefined;
  const today = localDate(context.now, context.timeZone);
  switch (operator) {
    case 'past':
      return dateOnly ? (actual as string) < today : at! < context.now;
    case 'future':
      return dateOnly ? (actual as string) > today : at! > context.now;
    case 'before':
    case 'after': {
      if (dateOnly) {
        if (typeof expected !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(expected)) return undefined;
        const day = expected.slice(0, 10);
        return operator === 'before' ? (actual as string) < day : (actual as string) > day;
      }
      const bound = instant(expected, context);
      if (bound === undefined) return undefined;
      return operator === 'before' ? at! < bound : at! > bound;
    }
    case 'before_x_hours_ago':
    case 'after_x_hours_ago': {
      const hours = asNumber(expected);
      if (hours === undefined) return undefined;
      const bound = context.now - hours * 3600_000;
      const moment = dateOnly ? dayjs.tz(actual as string, context.timeZone).valueOf() : at!;
      return operator === 'before_x_hours_ago' ? moment < bound : moment > bound;
    }
    default: {
      const span = period(operator, expected, today);
      if (!span) return undefined;
      if (dateOnly) {
        const day = actual as string;
        return day >= span.from && (span.to === 'now' ? day <= today : day < span.to);
      }
      const from = dayjs.tz(span.from, context.timeZone).valueOf();
      const to = span.to === 'now' ? context.now : dayjs.tz(span.to, context.timeZone).valueOf();
      return at! >= from && (span.to === 'now' ? at! <= to : at! < to);
    }
  }
}
