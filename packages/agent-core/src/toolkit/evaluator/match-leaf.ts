import type { DateTime } from 'luxon';
import { ValidationError } from '../errors/canopy-error';
import type { Operator } from '../query/operators';
import type { ColumnType } from '../schema/column-type';
import { toComparable } from './comparable-value';
import { getPeriod, isPeriodOperator } from './date-periods';
import { likeToRegExp, toRegExp } from './patterns';
import { type EvaluationContext, formatDate, nowIn } from './time-zone';

/** A compiled leaf: tells whether a field value matches. */
export type ValuePredicate = (actual: unknown) => boolean;

function asList(operator: Operator, value: unknown): unknown[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(
      `Operator '${operator}' expects an array, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function asNumber(operator: Operator, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidationError(
      `Operator '${operator}' expects a number, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

/** An instant as the comparable value of a Date (millis) or Dateonly (local date) column. */
function instant(moment: DateTime, columnType: ColumnType): unknown {
  return columnType === 'Dateonly' ? formatDate(moment) : moment.toMillis();
}

type Comparison = (a: never, b: never) => boolean;
const LT: Comparison = (a, b) => a < b;
const GT: Comparison = (a, b) => a > b;
const LTE: Comparison = (a, b) => a <= b;
const GTE: Comparison = (a, b) => a >= b;

/**
 * Compiles one operator into a predicate over field values of `columnType`, evaluated in the
 * caller's time zone. Every operator of the catalogue is implemented here directly (without
 * rewriting), which lets the tests check the equivalence rewrites against it.
 */
export function compileLeaf(
  operator: Operator,
  expected: unknown,
  columnType: ColumnType,
  context: EvaluationContext,
): ValuePredicate {
  const tz = context.timezone;
  const comparable = (value: unknown) => toComparable(value, columnType, tz);
  const ordered = (bound: unknown, test: Comparison): ValuePredicate => {
    return (actual) => {
      const left = comparable(actual);
      return left !== null && bound !== null && test(left as never, bound as never);
    };
  };
  const not =
    (predicate: ValuePredicate): ValuePredicate =>
    (actual) =>
      !predicate(actual);
  const onText =
    (test: (text: string) => boolean): ValuePredicate =>
    (actual) =>
      typeof actual === 'string' && test(actual);
  const isBlank: ValuePredicate = (actual) =>
    actual === null || actual === undefined || (columnType === 'String' && actual === '');
  const jsonItems = (items: unknown[]) =>
    new Set(items.map((item) => toComparable(item, 'Json', tz)));
  const text = asText(expected);
  const lower = text.toLowerCase();

  switch (operator) {
    case 'Present':
      return not(isBlank);
    case 'Blank':
      return isBlank;
    case 'Missing':
      return (actual) => actual === null || actual === undefined;
    case 'Equal':
    case 'NotEqual':
    case 'In':
    case 'NotIn': {
      const list =
        operator === 'In' || operator === 'NotIn' ? asList(operator, expected) : [expected];
      const accepted = new Set(list.map(comparable));
      const positive: ValuePredicate = (actual) => accepted.has(comparable(actual));
      return operator === 'Equal' || operator === 'In' ? positive : not(positive);
    }
    case 'LessThan':
    case 'Before':
      return ordered(comparable(expected), LT);
    case 'GreaterThan':
    case 'After':
      return ordered(comparable(expected), GT);
    case 'LessThanOrEqual':
      return ordered(comparable(expected), LTE);
    case 'GreaterThanOrEqual':
      return ordered(comparable(expected), GTE);
    case 'Contains':
      return onText((value) => value.includes(text));
    case 'NotContains':
      return not(onText((value) => value.includes(text)));
    case 'IContains':
      return onText((value) => value.toLowerCase().includes(lower));
    case 'NotIContains':
      return not(onText((value) => value.toLowerCase().includes(lower)));
    case 'StartsWith':
      return onText((value) => value.startsWith(text));
    case 'EndsWith':
      return onText((value) => value.endsWith(text));
    case 'IStartsWith':
      return onText((value) => value.toLowerCase().startsWith(lower));
    case 'IEndsWith':
      return onText((value) => value.toLowerCase().endsWith(lower));
    case 'Like':
    case 'ILike': {
      const regexp = likeToRegExp(text, operator === 'ILike');
      return onText((value) => regexp.test(value));
    }
    case 'Match': {
      const regexp = toRegExp(expected);
      return onText((value) => {
        regexp.lastIndex = 0;
        return regexp.test(value);
      });
    }
    case 'LongerThan': {
      const length = asNumber(operator, expected);
      return onText((value) => value.length > length);
    }
    case 'ShorterThan': {
      const length = asNumber(operator, expected);
      return onText((value) => value.length < length);
    }
    case 'IncludesAll': {
      const wanted = jsonItems(asList(operator, expected));
      return (actual) => {
        if (!Array.isArray(actual)) return wanted.size === 0;
        const present = jsonItems(actual);
        return [...wanted].every((item) => present.has(item));
      };
    }
    case 'IncludesNone': {
      const unwanted = jsonItems(asList(operator, expected));
      return (actual) =>
        !Array.isArray(actual) ||
        !actual.some((item) => unwanted.has(toComparable(item, 'Json', tz)));
    }
    case 'Past':
      return ordered(instant(nowIn(context), columnType), LT);
    case 'Future':
      return ordered(instant(nowIn(context), columnType), GT);
    case 'BeforeXHoursAgo':
    case 'AfterXHoursAgo': {
      const bound = nowIn(context).minus({ hours: asNumber(operator, expected) });
      return ordered(instant(bound, columnType), operator === 'BeforeXHoursAgo' ? LT : GT);
    }
    default: {
      if (!isPeriodOperator(operator)) {
        throw new ValidationError(`Unsupported operator: '${operator}'.`);
      }
      const period = getPeriod(operator, expected, context);
      const start = ordered(instant(period.start, columnType), GTE);
      const end = ordered(
        period.endIsNow && columnType === 'Dateonly'
          ? formatDate(period.end.startOf('day').plus({ days: 1 }))
          : instant(period.end, columnType),
        LT,
      );
      return (actual) => start(actual) && end(actual);
    }
  }
}

/** Evaluates one operator against one field value (see {@link compileLeaf}). */
export function matchLeaf(
  operator: Operator,
  expected: unknown,
  actual: unknown,
  columnType: ColumnType,
  context: EvaluationContext,
): boolean {
  return compileLeaf(operator, expected, columnType, context)(actual);
}
