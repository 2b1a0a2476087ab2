/**
 * Filter operators by field type (data-semantics §2.3), in the wire's snake_case (agent protocol
 * §6.3), with what kind of value each one takes.
 */
import type { SchemaField } from './schema';
import { typeName } from './schema';

export type ValueKind = 'none' | 'scalar' | 'list' | 'text' | 'number' | 'date';

export interface OperatorInfo {
  label: string;
  value: ValueKind;
}

export const OPERATORS: Record<string, OperatorInfo> = {
  equal: { label: 'is', value: 'scalar' },
  not_equal: { label: 'is not', value: 'scalar' },
  less_than: { label: 'is less than', value: 'scalar' },
  greater_than: { label: 'is greater than', value: 'scalar' },
  less_than_or_equal: { label: 'is at most', value: 'scalar' },
  greater_than_or_equal: { label: 'is at least', value: 'scalar' },
  in: { label: 'is one of', value: 'list' },
  not_in: { label: 'is none of', value: 'list' },
  present: { label: 'is present', value: 'none' },
  blank: { label: 'is blank', value: 'none' },
  missing: { label: 'is missing', value: 'none' },
  contains: { label: 'contains', value: 'text' },
  not_contains: { label: 'does not contain', value: 'text' },
  i_contains: { label: 'contains (any case)', value: 'text' },
  not_i_contains: { label: 'does not contain (any case)', value: 'text' },
  starts_with: { label: 'starts with', value: 'text' },
  i_starts_with: { label: 'starts with (any case)', value: 'text' },
  ends_with: { label: 'ends with', value: 'text' },
  i_ends_with: { label: 'ends with (any case)', value: 'text' },
  like: { label: 'matches pattern', value: 'text' },
  i_like: { label: 'matches pattern (any case)', value: 'text' },
  match: { label: 'matches regex', value: 'text' },
  longer_than: { label: 'is longer than', value: 'number' },
  shorter_than: { label: 'is shorter than', value: 'number' },
  includes_all: { label: 'includes all of', value: 'list' },
  includes_none: { label: 'includes none of', value: 'list' },
  before: { label: 'is before', value: 'date' },
  after: { label: 'is after', value: 'date' },
  past: { label: 'is in the past', value: 'none' },
  future: { label: 'is in the future', value: 'none' },
  today: { label: 'is today', value: 'none' },
  yesterday: { label: 'is yesterday', value: 'none' },
  previous_week: { label: 'is last week', value: 'none' },
  previous_month: { label: 'is last month', value: 'none' },
  previous_quarter: { label: 'is last quarter', value: 'none' },
  previous_year: { label: 'is last year', value: 'none' },
  previous_week_to_date: { label: 'is this week', value: 'none' },
  previous_month_to_date: { label: 'is this month', value: 'none' },
  previous_quarter_to_date: { label: 'is this quarter', value: 'none' },
  previous_year_to_date: { label: 'is this year', value: 'none' },
  previous_x_days: { label: 'is in the last X days (today excluded)', value: 'number' },
  previous_x_days_to_date: { label: 'is in the last X days (today included)', value: 'number' },
  before_x_hours_ago: { label: 'is more than X hours ago', value: 'number' },
  after_x_hours_ago: { label: 'is less than X hours ago', value: 'number' },
};

const BASE = ['equal', 'not_equal', 'present', 'blank', 'missing'];
const MEMBERSHIP = ['in', 'not_in'];
const ORDER = ['less_than', 'greater_than', 'less_than_or_equal', 'greater_than_or_equal'];
const DATE_ONLY = [
  'today',
  'yesterday',
  'past',
  'future',
  'before',
  'after',
  'previous_week',
  'previous_month',
  'previous_quarter',
  'previous_year',
  'previous_week_to_date',
  'previous_month_to_date',
  'previous_quarter_to_date',
  'previous_year_to_date',
  'previous_x_days',
  'previous_x_days_to_date',
];

const BY_TYPE: Record<string, string[]> = {
  String: [
    ...BASE,
    ...MEMBERSHIP,
    'contains',
    'not_contains',
    'i_contains',
    'not_i_contains',
    'starts_with',
    'i_starts_with',
    'ends_with',
    'i_ends_with',
    'like',
    'i_like',
    'longer_than',
    'shorter_than',
    'match',
  ],
  Number: [...BASE, ...MEMBERSHIP, ...ORDER],
  Dateonly: [...BASE, ...DATE_ONLY],
  Date: [...BASE, ...DATE_ONLY, 'before_x_hours_ago', 'after_x_hours_ago'],
  Time: [...BASE, 'less_than', 'greater_than'],
  Binary: [...BASE, ...MEMBERSHIP],
  Enum: [...BASE, ...MEMBERSHIP],
  Json: [...BASE, ...MEMBERSHIP],
  Boolean: [...BASE, ...MEMBERSHIP],
  Uuid: [...BASE, ...MEMBERSHIP],
  Point: [...BASE],
  Array: [...BASE, ...MEMBERSHIP, 'includes_all', 'includes_none'],
};

/**
 * The operators valid for a field, most useful first. When the agent reported the field's own
 * operators (capabilities, §11), only those are offered.
 */
export function operatorsFor(field: SchemaField, supported?: readonly string[]): string[] {
  const valid = BY_TYPE[typeName(field.type)] ?? BASE;
  if (field.isFilterable === false) return [];
  return supported ? valid.filter((operator) => supported.includes(operator)) : valid;
}

export function operatorLabel(operator: string): string {
  return OPERATORS[operator]?.label ?? operator.replace(/_/g, ' ');
}

export function valueKind(operator: string): ValueKind {
  return OPERATORS[operator]?.value ?? 'scalar';
}
