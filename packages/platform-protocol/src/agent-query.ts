/**
 * The query strings of the agent's data routes (docs/agent-http-protocol.md §6) and the selection
 * bodies of its bulk routes (§6.9): one builder for the Console and the test client. Callers pass
 * condition trees already in the agent's shape (lowercase aggregators, snake_case operators).
 */

/** A condition tree as the agent reads it in `filters` (§6.3). */
export type AgentConditionTree =
  | { field: string; operator: string; value?: unknown }
  | { aggregator: string; conditions: AgentConditionTree[] };

/** The parameters of a list, count or CSV export request. */
export interface AgentQuery {
  /** The user's timezone (IANA name), for date filters and date-only values. */
  timezone?: string;
  /** Top-level fields to return (columns and to-one relations): `fields[<collection>]`. */
  fields?: string[];
  /** For a to-one relation listed in `fields`, the fields of the related record: `fields[<relation>]`. */
  relationFields?: Record<string, string[]>;
  filters?: AgentConditionTree;
  /** Blank text means no search. */
  search?: string;
  /** Also search through to-one relations (only sent with a search). */
  searchExtended?: boolean;
  segment?: string;
  segmentQuery?: string;
  connectionName?: string;
  /** `field` or `-field` (descending); several joined with commas. */
  sort?: string;
  page?: { number?: number; size?: number };
}

/** One query-string parameter: a literal key such as `fields[orders]` and its raw value. */
export type QueryEntry = [key: string, value: string];

/** The parameters of `query` in the protocol's order; absent and empty parts are left out. */
export function agentQueryEntries(collection: string, query: AgentQuery): QueryEntry[] {
  const entries: QueryEntry[] = [];
  if (query.timezone) entries.push(['timezone', query.timezone]);
  if (query.fields?.length) {
    entries.push([`fields[${collection}]`, query.fields.join(',')]);
    for (const [relation, fields] of Object.entries(query.relationFields ?? {})) {
      if (query.fields.includes(relation) && fields.length) {
        entries.push([`fields[${relation}]`, fields.join(',')]);
      }
    }
  }
  if (query.filters) entries.push(['filters', JSON.stringify(query.filters)]);
  const search = query.search?.trim();
  if (search) {
    entries.push(['search', search]);
    if (query.searchExtended) entries.push(['searchExtended', 'true']);
  }
  if (query.segment) entries.push(['segment', query.segment]);
  if (query.segmentQuery !== undefined) entries.push(['segmentQuery', query.segmentQuery]);
  if (query.connectionName !== undefined) entries.push(['connectionName', query.connectionName]);
  if (query.sort) entries.push(['sort', query.sort]);
  if (query.page?.number !== undefined) entries.push(['page[number]', String(query.page.number)]);
  if (query.page?.size !== undefined) entries.push(['page[size]', String(query.page.size)]);
  return entries;
}

/** The filtering part of a query only: what the count route reads (§8.2). */
export function agentCountQuery(query: AgentQuery): AgentQuery {
  const { timezone, filters, search, searchExtended, segment, segmentQuery, connectionName } =
    query;
  return { timezone, filters, search, searchExtended, segment, segmentQuery, connectionName };
}

/**
 * `key=value&…`: bracketed keys are written literally (§6), values percent-encoded.
 */
export function queryString(entries: QueryEntry[]): string {
  return entries.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
}

/** The records a bulk route acts on (§6.9). Record ids are packed (§7.2). */
export type AgentSelection =
  | { ids: string[]; allRecords?: false }
  | {
      allRecords: true;
      /** Records left out of "every record matching the subset query". */
      excludedIds?: string[];
    };

/** What narrows a selection (`all_records_subset_query`): the list's filter, search and segment. */
export interface SelectionScope {
  filters?: AgentConditionTree;
  search?: string;
  searchExtended?: boolean;
  segment?: string;
  timezone?: string;
  /** A related-data tab: only the records linked to this parent record. */
  parent?: { collection: string; id: string; relation: string };
}

/** The `attributes` of a selection body (§6.9). */
export function selectionAttributes(
  collection: string,
  selection: AgentSelection,
  scope: SelectionScope = {},
): Record<string, unknown> {
  const all = selection.allRecords === true;
  const search = scope.search?.trim() || null;
  return {
    collection_name: collection,
    ids: all ? [] : selection.ids,
    all_records: all,
    all_records_ids_excluded: all ? (selection.excludedIds ?? []) : [],
    all_records_subset_query: {
      filters: scope.filters ? JSON.stringify(scope.filters) : null,
      search,
      ...(search && scope.searchExtended ? { searchExtended: true } : {}),
      segment: scope.segment ?? null,
      ...(scope.timezone ? { timezone: scope.timezone } : {}),
    },
    parent_collection_name: scope.parent?.collection ?? null,
    parent_collection_id: scope.parent?.id ?? null,
    parent_association_name: scope.parent?.relation ?? null,
  };
}

/** A selection body: `{data: {type: 'action-requests', attributes}}` plus extra attributes. */
export function selectionBody(
  collection: string,
  selection: AgentSelection,
  scope: SelectionScope = {},
  extra: Record<string, unknown> = {},
): { data: { type: 'action-requests'; attributes: Record<string, unknown> } } {
  return {
    data: {
      type: 'action-requests',
      attributes: { ...selectionAttributes(collection, selection, scope), ...extra },
    },
  };
}
