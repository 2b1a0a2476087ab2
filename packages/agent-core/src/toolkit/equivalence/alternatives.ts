import { getPeriod, isPeriodOperator } from '../evaluator/date-periods';
import { escapeLike, likeToRegExp } from '../evaluator/patterns';
import {
  type EvaluationContext,
  formatDate,
  formatInstant,
  nowIn,
  toDateTime,
} from '../evaluator/time-zone';
import { ValidationError } from '../errors/canopy-error';
import type { DateTime } from 'luxon';
import type { PlainConditionTree } from '../query/condition-tree/condition-tree';
import type { Operator } from '../query/operators';
import type { ColumnType, PrimitiveType } from '../schema/column-type';

/** A way to express an operator with other operators. */
export interface Alternative {
  /** Operators the rewritten tree uses. */
  dependsOn: Operator[];
  /** Column types the alternative is valid for (all when absent). */
  forTypes?: PrimitiveType[];
  /** Column types the alternative is not valid for. */
  exceptTypes?: PrimitiveType[];
  /** Builds the replacement of a leaf `field operator value`; `null` means "match everything". */
  replacer(
    field: string,
    value: unknown,
    columnType: ColumnType,
    context: EvaluationContext,
  ): PlainConditionTree | null;
}

const leaf = (field: string, operator: Operator, value?: unknown): PlainConditionTree =>
  value === undefined ? { field, operator } : { field, operator, value };
const or = (...conditions: PlainConditionTree[]): PlainConditionTree => ({
  aggregator: 'Or',
  conditions,
});
const and = (...conditions: PlainConditionTree[]): PlainConditionTree => ({
  aggregator: 'And',
  conditions,
});

const DATES: PrimitiveType[] = ['Date', 'Dateonly'];

function list(operator: Operator, value: unknown): unknown[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(
      `Operator '${operator}' expects an array, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function hours(operator: Operator, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidationError(
      `Operator '${operator}' expects a number of hours, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** A moment as a boundary value of a Date (UTC ISO) or Dateonly (local date) column. */
function boundary(moment: DateTime, columnType: ColumnType): string {
  return columnType === 'Dateonly' ? formatDate(moment) : formatInstant(moment);
}

function dateValue(operator: Operator, value: unknown, columnType: ColumnType, tz: string): string {
  const parsed = toDateTime(value, tz);
  if (!parsed) {
    throw new ValidationError(
      `Operator '${operator}' expects a date, got ${JSON.stringify(value)}.`,
    );
  }
  return boundary(parsed, columnType);
}

function stringPattern(operator: 'Like' | 'ILike', prefix: string, suffix: string) {
  return {
    dependsOn: [operator],
    forTypes: ['String'],
    replacer: (field: string, value: unknown) =>
      leaf(field, operator, `${prefix}${escapeLike(String(value))}${suffix}`),
  } satisfies Alternative;
}

function period(operator: Operator): Alternative {
  return {
    dependsOn: ['GreaterThanOrEqual', 'LessThan'],
    forTypes: DATES,
    replacer: (field, value, columnType, context) => {
      if (!isPeriodOperator(operator)) throw new Error(`${operator} is not a period`);
      const { start, end, endIsNow } = getPeriod(operator, value, context);
      const upper =
        endIsNow && columnType === 'Dateonly' ? end.startOf('day').plus({ days: 1 }) : end;
      return and(
        leaf(field, 'GreaterThanOrEqual', boundary(start, columnType)),
        leaf(field, 'LessThan', boundary(upper, columnType)),
      );
    },
  };
}

/**
 * The rewrite table of data-semantics §2.4, tried in order. Deliberate differences from the
 * reference: `Contains`-style patterns escape `%`, `_` and `\`; intervals use `>=` for the lower
 * bound on both date types; the regex-based `In`/`NotIn` alternatives for strings are omitted;
 * `Blank`/`Present` on strings are never reduced to a null check (which would miss `''`).
 */
export const ALTERNATIVES: Partial<Record<Operator, Alternative[]>> = {
  // On strings, Blank and Present also treat '' as empty: `Missing` / `NotEqual null` alone
  // would not, so they only serve other types.
  Blank: [
    {
      dependsOn: ['In'],
      forTypes: ['String'],
      replacer: (field) => leaf(field, 'In', [null, '']),
    },
    {
      dependsOn: ['Missing', 'Equal'],
      forTypes: ['String'],
      replacer: (field) => or(leaf(field, 'Missing'), leaf(field, 'Equal', '')),
    },
    {
      dependsOn: ['Missing'],
      exceptTypes: ['String'],
      replacer: (field) => leaf(field, 'Missing'),
    },
  ],
  Missing: [{ dependsOn: ['Equal'], replacer: (field) => leaf(field, 'Equal', null) }],
  Present: [
    {
      dependsOn: ['NotIn'],
      forTypes: ['String'],
      replacer: (field) => leaf(field, 'NotIn', [null, '']),
    },
    {
      dependsOn: ['NotEqual'],
      forTypes: ['String'],
      replacer: (field) => and(leaf(field, 'NotEqual', null), leaf(field, 'NotEqual', '')),
    },
    {
      dependsOn: ['NotEqual'],
      exceptTypes: ['String'],
      replacer: (field) => leaf(field, 'NotEqual', null),
    },
  ],
  Equal: [{ dependsOn: ['In'], replacer: (field, value) => leaf(field, 'In', [value]) }],
  In: [
    {
      dependsOn: ['Equal'],
      replacer: (field, value) =>
        or(...list('In', value).map((item) => leaf(field, 'Equal', item))),
    },
  ],
  NotEqual: [{ dependsOn: ['NotIn'], replacer: (field, value) => leaf(field, 'NotIn', [value]) }],
  NotIn: [
    {
      dependsOn: ['NotEqual'],
      replacer: (field, value) => {
        const items = list('NotIn', value);
        return items.length === 0
          ? null
          : and(...items.map((item) => leaf(field, 'NotEqual', item)));
      },
    },
  ],
  LessThanOrEqual: [
    {
      dependsOn: ['LessThan', 'Equal'],
      replacer: (field, value) => or(leaf(field, 'LessThan', value), leaf(field, 'Equal', value)),
    },
  ],
  GreaterThanOrEqual: [
    {
      dependsOn: ['GreaterThan', 'Equal'],
      replacer: (field, value) =>
        or(leaf(field, 'GreaterThan', value), leaf(field, 'Equal', value)),
    },
  ],
  Contains: [stringPattern('Like', '%', '%')],
  StartsWith: [stringPattern('Like', '', '%')],
  EndsWith: [stringPattern('Like', '%', '')],
  IContains: [stringPattern('ILike', '%', '%')],
  IStartsWith: [stringPattern('ILike', '', '%')],
  IEndsWith: [stringPattern('ILike', '%', '')],
  Like: [
    {
      dependsOn: ['Match'],
      forTypes: ['String'],
      replacer: (field, value) => leaf(field, 'Match', likeToRegExp(String(value), false)),
    },
  ],
  ILike: [
    {
      dependsOn: ['Match'],
      forTypes: ['String'],
      replacer: (field, value) => leaf(field, 'Match', likeToRegExp(String(value), true)),
    },
  ],
  Before: [
    {
      dependsOn: ['LessThan'],
      forTypes: DATES,
      replacer: (field, value, type, { timezone }) =>
        leaf(field, 'LessThan', dateValue('Before', value, type, timezone)),
    },
  ],
  After: [
    {
      dependsOn: ['GreaterThan'],
      forTypes: DATES,
      replacer: (field, value, type, { timezone }) =>
        leaf(field, 'GreaterThan', dateValue('After', value, type, timezone)),
    },
  ],
  Past: [
    {
      dependsOn: ['LessThan'],
      forTypes: DATES,
      replacer: (field, _value, type, context) =>
        leaf(field, 'LessThan', boundary(nowIn(context), type)),
    },
  ],
  Future: [
    {
      dependsOn: ['GreaterThan'],
      forTypes: DATES,
      replacer: (field, _value, type, context) =>
        leaf(field, 'GreaterThan', boundary(nowIn(context), type)),
    },
  ],
  BeforeXHoursAgo: [
    {
      dependsOn: ['LessThan'],
      forTypes: DATES,
      replacer: (field, value, type, context) =>
        leaf(
          field,
          'LessThan',
          boundary(nowIn(context).minus({ hours: hours('BeforeXHoursAgo', value) }), type),
        ),
    },
  ],
  AfterXHoursAgo: [
    {
      dependsOn: ['GreaterThan'],
      forTypes: DATES,
      replacer: (field, value, type, context) =>
        leaf(
          field,
          'GreaterThan',
          boundary(nowIn(context).minus({ hours: hours('AfterXHoursAgo', value) }), type),
        ),
    },
  ],
  Today: [period('Today')],
  Yesterday: [period('Yesterday')],
  PreviousWeek: [period('PreviousWeek')],
  PreviousMonth: [period('PreviousMonth')],
  PreviousQuarter: [period('PreviousQuarter')],
  PreviousYear: [period('PreviousYear')],
  PreviousWeekToDate: [period('PreviousWeekToDate')],
  PreviousMonthToDate: [period('PreviousMonthToDate')],
  PreviousQuarterToDate: [period('PreviousQuarterToDate')],
  PreviousYearToDate: [period('PreviousYearToDate')],
  PreviousXDays: [period('PreviousXDays')],
  PreviousXDaysToDate: [period('PreviousXDaysToDate')],
};
