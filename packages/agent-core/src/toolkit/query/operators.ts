import type { PrimitiveType } from '../schema/column-type';

/** Operators that take no value. */
export const VALUELESS_OPERATORS = [
  'Present',
  'Blank',
  'Missing',
  'Past',
  'Future',
  'Today',
  'Yesterday',
  'PreviousWeek',
  'PreviousMonth',
  'PreviousQuarter',
  'PreviousYear',
  'PreviousWeekToDate',
  'PreviousMonthToDate',
  'PreviousQuarterToDate',
  'PreviousYearToDate',
] as const;

/** Operators whose value is a number rather than a value of the column's type. */
export const NUMBER_VALUED_OPERATORS = [
  'LongerThan',
  'ShorterThan',
  'BeforeXHoursAgo',
  'AfterXHoursAgo',
  'PreviousXDays',
  'PreviousXDaysToDate',
] as const;

/** Operators whose value is an array of values of the column's (item) type. */
export const ARRAY_VALUED_OPERATORS = ['In', 'NotIn', 'IncludesAll', 'IncludesNone'] as const;

/** Relative date periods resolved in the caller's time zone (data-semantics §2.5). */
export const INTERVAL_OPERATORS = [
  'Today',
  'Yesterday',
  'PreviousWeek',
  'PreviousMonth',
  'PreviousQuarter',
  'PreviousYear',
  'PreviousWeekToDate',
  'PreviousMonthToDate',
  'PreviousQuarterToDate',
  'PreviousYearToDate',
  'PreviousXDays',
  'PreviousXDaysToDate',
] as const;

/** Operators that test whether a value is there: no value, any column type. */
export const PRESENCE_OPERATORS = ['Present', 'Blank', 'Missing'] as const;

/** Comparison of ordered values (numbers, dates, times, text). */
export const ORDERING_OPERATORS = [
  'LessThan',
  'GreaterThan',
  'LessThanOrEqual',
  'GreaterThanOrEqual',
] as const;

/** Pattern operators on text whose value is text (case-sensitive and insensitive variants). */
export const TEXT_MATCH_OPERATORS = [
  'Contains',
  'NotContains',
  'StartsWith',
  'EndsWith',
  'IContains',
  'NotIContains',
  'IStartsWith',
  'IEndsWith',
  'Like',
  'ILike',
] as const;

/** Every operator specific to text: the patterns, regular expressions and length comparisons. */
export const STRING_OPERATORS = [
  ...TEXT_MATCH_OPERATORS,
  'Match',
  'LongerThan',
  'ShorterThan',
] as const;

/** Every operator specific to dates: bounds, now, hours ago and the relative periods. */
export const DATE_OPERATORS = [
  'Before',
  'After',
  'Past',
  'Future',
  'BeforeXHoursAgo',
  'AfterXHoursAgo',
  ...INTERVAL_OPERATORS,
] as const;

/**
 * Every operator of the data model, grouped by family.
 *
 * A data source only needs a minimal set (see {@link MINIMAL_OPERATORS}); the customizer derives
 * the others by rewriting (data-semantics §2.4).
 */
export const OPERATORS = [
  ...PRESENCE_OPERATORS,
  'Equal',
  'NotEqual',
  'In',
  'NotIn',
  ...ORDERING_OPERATORS,
  ...STRING_OPERATORS,
  'IncludesAll',
  'IncludesNone',
  ...DATE_OPERATORS,
] as const;

/** One of {@link OPERATORS}. */
export type Operator = (typeof OPERATORS)[number];

/** Operators from which every other one can be derived. */
export const MINIMAL_OPERATORS: readonly Operator[] = [
  'Equal',
  'NotEqual',
  'LessThan',
  'GreaterThan',
  'LessThanOrEqual',
  'GreaterThanOrEqual',
  'Match',
  'NotContains',
  'NotIContains',
  'LongerThan',
  'ShorterThan',
  'IncludesAll',
  'IncludesNone',
];

/** Whether a string is an operator name. */
export function isOperator(value: unknown): value is Operator {
  return typeof value === 'string' && (OPERATORS as readonly string[]).includes(value);
}

const BASE: Operator[] = [...PRESENCE_OPERATORS, 'Equal', 'NotEqual'];
const SET: Operator[] = ['In', 'NotIn', 'IncludesAll', 'IncludesNone'];

/**
 * Operators allowed per primitive column type (data-semantics §2.3). Deliberate differences from
 * the reference: ordering operators are allowed on `Date`, `Dateonly` and `Time`, `Match` on
 * `String`, and the hour-based operators on `Dateonly` too.
 */
export const OPERATORS_BY_TYPE: Readonly<Record<PrimitiveType, ReadonlySet<Operator>>> = {
  String: new Set([...BASE, ...SET, ...ORDERING_OPERATORS, ...STRING_OPERATORS]),
  Number: new Set([...BASE, ...SET, ...ORDERING_OPERATORS]),
  Date: new Set([...BASE, ...SET, ...ORDERING_OPERATORS, ...DATE_OPERATORS]),
  Dateonly: new Set([...BASE, ...SET, ...ORDERING_OPERATORS, ...DATE_OPERATORS]),
  Time: new Set([...BASE, ...SET, ...ORDERING_OPERATORS]),
  Binary: new Set([...BASE, ...SET]),
  Enum: new Set([...BASE, ...SET]),
  Json: new Set([...BASE, ...SET]),
  Boolean: new Set([...BASE, ...SET]),
  Uuid: new Set([...BASE, ...SET]),
  Point: new Set(BASE),
  File: new Set(BASE),
};

/** Operators allowed on array columns (`['String']`…). */
export const ARRAY_COLUMN_OPERATORS: ReadonlySet<Operator> = new Set([...BASE, ...SET]);
