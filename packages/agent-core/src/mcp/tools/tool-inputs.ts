import { z } from 'zod';

import { toSnakeCase } from '../../protocol/capabilities/collection-capabilities';

/** Operators of the condition trees a model writes (platform protocol §16.6). */
export const FILTER_OPERATORS = [
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
  'Today',
  'Yesterday',
  'PreviousMonth',
  'PreviousQuarter',
  'PreviousWeek',
  'PreviousYear',
  'PreviousMonthToDate',
  'PreviousQuarterToDate',
  'PreviousWeekToDate',
  'PreviousXDaysToDate',
  'PreviousXDays',
  'PreviousYearToDate',
  'Present',
  'Blank',
  'Missing',
  'In',
  'NotIn',
  'StartsWith',
  'EndsWith',
  'Contains',
  'IStartsWith',
  'IEndsWith',
  'IContains',
  'Like',
  'ILike',
  'Before',
  'After',
  'AfterXHoursAgo',
  'BeforeXHoursAgo',
  'Future',
  'Past',
] as const;

/** Largest page a tool returns: keeps answers small enough for a context window. */
export const MAX_PAGE_SIZE = 100;

const leaf = z
  .object({
    field: z
      .string()
      .min(1)
      .describe('Field name; `relation:field` for a field of a to-one relation'),
    operator: z.enum(FILTER_OPERATORS),
    value: z
      .unknown()
      .optional()
      .describe('Omitted for operators without a value (Present, Today…)'),
  })
  .strict();
const aggregator = z.enum(['And', 'Or']);
const level3 = z.object({ aggregator, conditions: z.array(leaf).min(1) }).strict();
const level2 = z
  .object({ aggregator, conditions: z.array(z.union([leaf, level3])).min(1) })
  .strict();
const level1 = z
  .object({ aggregator, conditions: z.array(z.union([leaf, level2])).min(1) })
  .strict();

/** A condition tree as JSON (nested at most 3 levels). */
export type ToolConditionTree = z.infer<typeof leaf> | z.infer<typeof level1>;

/** Accepts an object, or the same object sent as a JSON string (some clients stringify). */
function jsonOrObject<T extends z.ZodTypeAny>(schema: T, what: string) {
  return z.preprocess((value, context) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: `${what} is a string but not valid JSON` });
      return z.NEVER;
    }
  }, schema);
}

/** `filters`: a condition tree with PascalCase operators and `And`/`Or` aggregators. */
export const filtersInput = jsonOrObject(z.union([leaf, level1]), 'filters').describe(
  'Condition tree: {"field","operator","value"} or {"aggregator":"And"|"Or","conditions":[...]}, ' +
    'nested at most 3 levels. Example: {"aggregator":"And","conditions":[{"field":"status",' +
    '"operator":"Equal","value":"paid"},{"field":"total","operator":"GreaterThan","value":100}]}',
);

/** `attributes` / `values`: an object of field values (or its JSON string). */
export const valuesInput = (what: string) => jsonOrObject(z.record(z.string(), z.unknown()), what);

/** A record id (composite keys pipe-joined, e.g. `"12|3"`). */
export const recordIdInput = z
  .union([z.string().min(1), z.number()])
  .describe('Record id; composite keys are pipe-joined, e.g. "12|3"');

/** `collectionName`: an enum of the collections the caller may use (plain string if none). */
export function collectionNameInput(names: readonly string[]) {
  const [first, ...rest] = names;
  return first === undefined
    ? z.string().min(1)
    : z.enum([first, ...rest]).describe('Name of the collection');
}

/** The reading options shared by `list` and `listRelated`. */
export const readInputs = {
  search: z.string().optional().describe('Full-text search over the searchable fields'),
  filters: filtersInput.optional(),
  sort: z
    .object({ field: z.string().min(1), ascending: z.boolean().default(true) })
    .strict()
    .optional()
    .describe('Sort by one sortable field'),
  shouldSearchInRelation: z
    .boolean()
    .default(false)
    .describe('Also search through the fields of to-one relations'),
  fields: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Fields to return (default: all); `relation@@@field` for a field of a to-one relation',
    ),
  pagination: z
    .object({
      size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(15),
      number: z.number().int().min(1).default(1),
    })
    .strict()
    .optional()
    .describe(`Page to return: size 1 to ${MAX_PAGE_SIZE} (default 15), number from 1`),
  enableCount: z.boolean().default(false).describe('Also return totalCount (one more query)'),
};

/** `GreaterThan` → `greater_than`, `And` → `and` (the REST interface's casing). */
export function toWireTree(tree: ToolConditionTree): unknown {
  if ('aggregator' in tree) {
    return {
      aggregator: tree.aggregator.toLowerCase(),
      conditions: (tree.conditions as ToolConditionTree[]).map(toWireTree),
    };
  }
  return { field: tree.field, operator: toSnakeCase(tree.operator), value: tree.value };
}
