import { type AgentQuery, agentQueryEntries } from '@canopy/platform-protocol';

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

/** Splits `relation@@@field` names into top-level fields and the fields of each relation. */
function splitFields(
  fields: string[],
  ownFields: ReadonlySet<string>,
): Pick<AgentQuery, 'fields' | 'relationFields'> {
  const top: string[] = [];
  const relationFields: Record<string, string[]> = {};
  for (const field of fields) {
    const [relation, sub] = field.split('@@@') as [string, string | undefined];
    if (sub === undefined || ownFields.has(field)) top.push(field);
    else {
      if (!relationFields[relation]) top.push(relation);
      relationFields[relation] = [...(relationFields[relation] ?? []), sub];
    }
  }
  return { fields: top, relationFields };
}

/**
 * Serializes query options to the query-string keys of agent-http-protocol §6 (the builder is
 * platform-protocol's, shared with the Console).
 */
export function serializeQueryOptions(
  collection: string,
  options: QueryOptions | undefined,
  ownFields: ReadonlySet<string> = new Set(),
): Record<string, string | undefined> {
  if (!options) return {};
  const query: AgentQuery = {
    ...(options.fields ? splitFields(options.fields, ownFields) : {}),
    filters: options.filters && snakeTree(options.filters),
    search: options.search,
    searchExtended: options.shouldSearchInRelation,
    segmentQuery: options.segmentQuery,
    connectionName: options.connectionName,
    sort: options.sort && `${options.sort.ascending ? '' : '-'}${options.sort.field}`,
    page: options.pagination,
  };
  return Object.fromEntries(agentQueryEntries(collection, query));
}
