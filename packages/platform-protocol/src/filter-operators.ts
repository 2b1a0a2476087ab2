/**
 * Filter operators of condition trees as front ends and the platform write them (snake_case), the
 * kind of value each takes, and the operators a field's type allows (most useful first). The
 * console's filter builder offers these; the platform checks team scopes with them.
 */

/** What an operator's `value` is: nothing, one value of the field's type, a list of them, text… */
export type FilterValueKind = 'none' | 'scalar' | 'list' | 'text' | 'number' | 'date';

/** Every operator, with the kind of value it takes. */
export const FILTER_OPERATOR_VALUES: Readonly<Record<string, FilterValueKind>> = {
  equal: 'scalar',
  not_equal: 'scalar',
  less_than: 'scalar',
  greater_than: 'scalar',
  less_than_or_equal: 'scalar',
  greater_than_or_equal: 'scalar',
  in: 'list',
  not_in: 'list',
  present: 'none',
  blank: 'none',
  missing: 'none',
  contains: 'text',
  not_contains: 'text',
  i_contains: 'text',
  not_i_contains: 'text',
  starts_with: 'text',
  i_starts_with: 'text',
  ends_with: 'text',
  i_ends_with: 'text',
  like: 'text',
  i_like: 'text',
  match: 'text',
  longer_than: 'number',
  shorter_than: 'number',
  includes_all: 'list',
  includes_none: 'list',
  before: 'date',
  after: 'date',
  past: 'none',
  future: 'none',
  today: 'none',
  yesterday: 'none',
  previous_week: 'none',
  previous_month: 'none',
  previous_quarter: 'none',
  previous_year: 'none',
  previous_week_to_date: 'none',
  previous_month_to_date: 'none',
  previous_quarter_to_date: 'none',
  previous_year_to_date: 'none',
  previous_x_days: 'number',
  previous_x_days_to_date: 'number',
  before_x_hours_ago: 'number',
  after_x_hours_ago: 'number',
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

/** The operators of each field type name (see {@link fieldTypeName}), most useful first. */
export const FILTER_OPERATORS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
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
 * The type name of a schema field's `type` (`String`, `Number`…; `Timeonly` read as `Time`):
 * `Array` for a list type, `Object` for a composite one (which no operator filters).
 */
export function fieldTypeName(type: unknown): string {
  if (typeof type === 'string') return type === 'Timeonly' ? 'Time' : type;
  return Array.isArray(type) ? 'Array' : 'Object';
}

/** The operators a field's type allows; equality and presence for composite and other types. */
export function filterOperatorsForType(type: unknown): readonly string[] {
  return FILTER_OPERATORS_BY_TYPE[fieldTypeName(type)] ?? BASE;
}

/** `PreviousXDays` → `previous_x_days`; snake_case names are kept. */
export function snakeCaseOperator(operator: string): string {
  return operator.replace(/(?!^)([A-Z])/g, '_$1').toLowerCase();
}
