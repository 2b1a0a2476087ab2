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

/**
 * Every operator of the data model, grouped by family.
 *
 * A data source only needs a minimal set (see {@link MINIMAL_OPERATORS}); the customizer derives
 * the others by rewriting (data-semantics §2.4).
 */
export const OPERATORS = [
  // comparison
  'Present',
  'Blank',
  'Missing',
  'Equal',
  'NotEqual',
  'In',
  'NotIn',
  'LessThan',
  'GreaterThan',
  'LessThanOrEqual',
  'GreaterThanOrEqual',
  // string
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
  'Match',
  'LongerThan',
  'ShorterThan',
  // array
  'IncludesAll',
  'IncludesNone',
  // date
  'Before',
  'After',
  'Past',
  'Future',
  'BeforeXHoursAgo',
  'AfterXHoursAgo',
  ...INTERVAL_OPERATORS,
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

const BASE: Operator[] = ['Present', 'Blank', 'Missing', 'Equal', 'NotEqual'];
const SET: Operator[] = ['In', 'NotIn', 'IncludesAll', 'IncludesNone'];
const ORDER: Operator[] = ['LessThan', 'GreaterThan', 'LessThanOrEqual', 'GreaterThanOrEqual'];
const DATES: Operator[] = [
  'Before',
  'After',
  'Past',
  'Future',
  ...INTERVAL_OPERATORS,
  'BeforeXHoursAgo',
  'AfterXHoursAgo',
];

/**
 * Operators allowed per primitive column type (data-semantics §2.3). Deliberate differences from
 * the reference: ordering operators are allowed on `Date`, `Dateonly` and `Time`, `Match` on
 * `String`, and the hour-based operators on `Dateonly` too.
 */
export const OPERATORS_BY_TYPE: Readonly<Record<PrimitiveType, ReadonlySet<Operator>>> = {
  String: new Set([
    ...BASE,
    ...SET,
    ...ORDER,
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
    'Match',
    'LongerThan',
    'ShorterThan',
  ]),
  Number: new Set([...BASE, ...SET, ...ORDER]),
  Date: new Set([...BASE, ...SET, ...ORDER, ...DATES]),
  Dateonly: new Set([...BASE, ...SET, ...ORDER, ...DATES]),
  Time: new Set([...BASE, ...SET, ...ORDER]),
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
