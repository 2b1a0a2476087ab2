import type { ColumnSchema, PlainConditionTree } from '@canopy/agent-core';
import type { TableModel } from '../schema/table-model';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^-?\d+(\.\d+)?$/;
const MATCH_NONE: PlainConditionTree = { aggregator: 'Or', conditions: [] };

interface Token {
  text: string;
  negated: boolean;
}

/** Splits search text into tokens: words, `"quoted text"`, and `-word` negations. */
function tokenize(search: string): Token[] {
  const tokens: Token[] = [];
  for (const match of search.matchAll(/(-?)(?:"([^"]*)"|'([^']*)'|(\S+))/g)) {
    const text = match[2] ?? match[3] ?? match[4] ?? '';
    const negated = match[1] === '-' && !NUMBER.test(`-${text}`);
    tokens.push({ text: negated ? text : `${match[1] ?? ''}${text}`, negated });
  }
  return tokens;
}

function positive(
  path: string,
  column: ColumnSchema,
  text: string,
): PlainConditionTree | undefined {
  const operators = column.filterOperators;
  switch (column.columnType) {
    case 'String':
      if (operators.has('IContains')) return { field: path, operator: 'IContains', value: text };
      return undefined;
    case 'Number':
      return NUMBER.test(text) && operators.has('Equal')
        ? { field: path, operator: 'Equal', value: Number(text) }
        : undefined;
    case 'Uuid':
      return UUID.test(text) ? { field: path, operator: 'Equal', value: text } : undefined;
    case 'Enum': {
      const label = column.enumValues?.find(
        (value) => value.toLowerCase() === text.trim().toLowerCase(),
      );
      return label ? { field: path, operator: 'Equal', value: label } : undefined;
    }
    default:
      return undefined;
  }
}

function negative(
  path: string,
  column: ColumnSchema,
  text: string,
): PlainConditionTree | undefined {
  const condition = positive(path, column, text);
  if (!condition || !('field' in condition)) return undefined;
  const operator = condition.operator === 'IContains' ? 'NotIContains' : 'NotEqual';
  return {
    aggregator: 'Or',
    conditions: [
      { ...condition, operator },
      { field: path, operator: 'Missing' },
    ],
  };
}

/**
 * The condition tree of a free-text search (data-semantics §3.9, without the query language's
 * `field:value`, AND/OR keywords and date tokens): tokens are AND-ed; a token matches when one
 * searchable column matches it (strings contain it case-insensitively, numbers, uuids and enum
 * labels equal it); `-token` excludes. `extended` adds the columns of to-one relations.
 */
export function searchCondition(
  model: TableModel,
  models: Map<string, TableModel>,
  search: string,
  extended: boolean,
): PlainConditionTree | null {
  const fields: Array<[string, ColumnSchema]> = [];
  const addColumns = (target: TableModel, prefix: string) => {
    for (const [name, field] of Object.entries(target.fields)) {
      if (field.type === 'Column') fields.push([`${prefix}${name}`, field]);
    }
  };
  addColumns(model, '');
  if (extended) {
    for (const [name, field] of Object.entries(model.fields)) {
      if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') continue;
      const target = models.get(field.foreignCollection);
      if (target) addColumns(target, `${name}:`);
    }
  }
  const tokens = tokenize(search.trim());
  if (tokens.length === 0) return null;
  const conditions = tokens.map((token): PlainConditionTree => {
    const build = token.negated ? negative : positive;
    const parts = fields.flatMap(([path, column]) => build(path, column, token.text) ?? []);
    if (token.negated) return { aggregator: 'And', conditions: parts };
    return parts.length === 0 ? MATCH_NONE : { aggregator: 'Or', conditions: parts };
  });
  return conditions.length === 1
    ? (conditions[0] as PlainConditionTree)
    : { aggregator: 'And', conditions };
}
