/** A condition tree as tests write it: PascalCase or snake_case operators. */
export type ClientConditionTree =
  | { field: string; operator: string; value?: unknown }
  | { aggregator: string; conditions: ClientConditionTree[] };

/** Options of list, count and related-data calls (platform protocol §14.5). */
export interface QueryOptions {
  filters?: ClientConditionTree;
  sort?: { field: string; ascending: boolean };
  search?: string;
  /** Also search through to-one relations (`searchExtended`). */
  shouldSearchInRelation?: boolean;
  /**
   * Fields to read: `name`, or `relation@@@field` for a field of a to-one relation. A name that is
   * itself a field of the collection (a flattened field such as `address@@@city`) stays a field.
   */
  fields?: string[];
  pagination?: { size?: number; number?: number };
  segmentQuery?: string;
  connectionName?: string;
  /**
   * Exactly the fields to read, sent as the `Forest-Projection` header (agent-http-protocol
   * §6.2, which takes precedence over `fields`): `name`, or `relation:field` through to-one
   * relations (several levels allowed). On list, get, related list and CSV export.
   */
  projection?: string[];
}

/** The `Forest-Projection` header of `options.projection`, when given. */
export function projectionHeaders(options: QueryOptions | undefined): Record<string, string> {
  return options?.projection ? { 'Forest-Projection': options.projection.join(',') } : {};
}

/** `GreaterThan` → `greater_than`, `And` → `and` (the front end's casing). */
export function toSnakeCase(value: string): string {
  return value.replace(/(?!^)([A-Z])/g, '_$1').toLowerCase();
}

function snakeTree(tree: ClientConditionTree): ClientConditionTree {
  if ('aggregator' in tree) {
    return {
      aggregator: tree.aggregator.toLowerCase(),
      conditions: tree.conditions.map(snakeTree),
    };
  }
  return { ...tree, operator: toSnakeCase(tree.operator) };
}

/** Serializes query options to the query-string keys of agent-http-protocol §6. */
export function serializeQueryOptions(
  collection: string,
  options: QueryOptions | undefined,
  ownFields: ReadonlySet<string> = new Set(),
): Record<string, string | undefined> {
  if (!options) return {};
  const query: Record<string, string | undefined> = {
    searchExtended: String(options.shouldSearchInRelation ?? false),
  };
  if (options.filters) query.filters = JSON.stringify(snakeTree(options.filters));
  if (options.sort) query.sort = `${options.sort.ascending ? '' : '-'}${options.sort.field}`;
  if (options.search !== undefined) query.search = options.search;
  if (options.pagination?.size !== undefined) query['page[size]'] = String(options.pagination.size);
  if (options.pagination?.number !== undefined) {
    query['page[number]'] = String(options.pagination.number);
  }
  if (options.fields) {
    const top: string[] = [];
    const nested = new Map<string, string[]>();
    for (const field of options.fields) {
      const [relation, sub] = field.split('@@@');
      if (sub === undefined || ownFields.has(field)) top.push(field);
      else {
        if (!nested.has(relation as string)) top.push(relation as string);
        nested.set(relation as string, [...(nested.get(relation as string) ?? []), sub]);
      }
    }
    query[`fields[${collection}]`] = top.join(',');
    for (const [relation, subs] of nested) query[`fields[${relation}]`] = subs.join(',');
  }
  if (options.segmentQuery !== undefined) query.segmentQuery = options.segmentQuery;
  if (options.connectionName !== undefined) query.connectionName = options.connectionName;
  return query;
}
