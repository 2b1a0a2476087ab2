/**
 * Filter operators by field type (data-semantics §2.3), in the wire's snake_case (agent protocol
 * §6.3), with what kind of value each one takes.
 */
import {
  FILTER_OPERATOR_VALUES,
  filterOperatorsForType,
  type FilterValueKind,
} from '@canopy/platform-protocol';
import type { SchemaField } from './schema';

export type ValueKind = FilterValueKind;

/** The operators an agent allows per field (its capabilities): collection → field → operators. */
export type FieldOperators = Record<string, Record<string, readonly string[]>>;

export interface OperatorInfo {
  label: string;
  value: ValueKind;
}

const LABELS: Record<string, string> = {
  equal: 'is',
  not_equal: 'is not',
  less_than: 'is less than',
  greater_than: 'is greater than',
  less_than_or_equal: 'is at most',
  greater_than_or_equal: 'is at least',
  in: 'is one of',
  not_in: 'is none of',
  present: 'is present',
  blank: 'is blank',
  missing: 'is missing',
  contains: 'contains',
  not_contains: 'does not contain',
  i_contains: 'contains (any case)',
  not_i_contains: 'does not contain (any case)',
  starts_with: 'starts with',
  i_starts_with: 'starts with (any case)',
  ends_with: 'ends with',
  i_ends_with: 'ends with (any case)',
  like: 'matches pattern',
  i_like: 'matches pattern (any case)',
  match: 'matches regex',
  longer_than: 'is longer than',
  shorter_than: 'is shorter than',
  includes_all: 'includes all of',
  includes_none: 'includes none of',
  before: 'is before',
  after: 'is after',
  past: 'is in the past',
  future: 'is in the future',
  today: 'is today',
  yesterday: 'is yesterday',
  previous_week: 'is last week',
  previous_month: 'is last month',
  previous_quarter: 'is last quarter',
  previous_year: 'is last year',
  previous_week_to_date: 'is this week',
  previous_month_to_date: 'is this month',
  previous_quarter_to_date: 'is this quarter',
  previous_year_to_date: 'is this year',
  previous_x_days: 'is in the last X days (today excluded)',
  previous_x_days_to_date: 'is in the last X days (today included)',
  before_x_hours_ago: 'is more than X hours ago',
  after_x_hours_ago: 'is less than X hours ago',
};

export const OPERATORS: Record<string, OperatorInfo> = Object.fromEntries(
  Object.entries(FILTER_OPERATOR_VALUES).map(([operator, value]) => [
    operator,
    { label: LABELS[operator] ?? operator.replace(/_/g, ' '), value },
  ]),
);

/**
 * The operators valid for a field, most useful first. When the agent reported the field's own
 * operators (capabilities, §11), only those are offered.
 */
export function operatorsFor(field: SchemaField, supported?: readonly string[]): string[] {
  const valid = filterOperatorsForType(field.type);
  if (field.isFilterable === false) return [];
  return valid.filter((operator) => !supported || supported.includes(operator));
}

export function operatorLabel(operator: string): string {
  return OPERATORS[operator]?.label ?? operator.replace(/_/g, ' ');
}

export function valueKind(operator: string): ValueKind {
  return OPERATORS[operator]?.value ?? 'scalar';
}
