/**
 * Query strings of the agent's data routes (agent protocol §6) and selection bodies (§6.9), in
 * the Console's terms: the builders are platform-protocol's, shared with the test client.
 */
import {
  agentCountQuery,
  type AgentQuery,
  agentQueryEntries,
  queryString,
  selectionBody as agentSelectionBody,
  type SelectionScope,
} from '@canopy/platform-protocol';
import type { ConditionTree } from './conditions';
import { compactTree } from './conditions';

export interface ListParams {
  /** Top-level fields to return (columns and to-one relations). Default: the agent's. */
  fields?: string[];
  /** For each to-one relation in `fields`, the fields of the related record to return. */
  relationFields?: Record<string, string[]>;
  /** `field` or `-field` (descending); several joined with commas. */
  sort?: string;
  page?: { number: number; size: number };
  search?: string;
  searchExtended?: boolean;
  filters?: ConditionTree;
  segment?: string;
}

/** The shared builder's query (conditions compacted to the shape the agent reads). */
function agentQuery(params: ListParams, timezone: string): AgentQuery {
  const { filters, ...rest } = params;
  return { ...rest, filters: compactTree(filters), timezone };
}

/** `timezone=…&fields[orders]=…&filters=…&sort=…&page[number]=…&page[size]=…`. */
export function listQuery(collection: string, params: ListParams, timezone: string): string {
  return queryString(agentQueryEntries(collection, agentQuery(params, timezone)));
}

/** The count route takes the filtering parameters only (§8.2). */
export function countQuery(collection: string, params: ListParams, timezone: string): string {
  return queryString(agentQueryEntries(collection, agentCountQuery(agentQuery(params, timezone))));
}

/**
 * The CSV export query (§8.14): the list's filters and sort, no pagination, the column list and
 * its `header` line (labels; commas inside a label would split it, so they become spaces).
 */
export function csvQuery(
  collection: string,
  params: ListParams,
  timezone: string,
  header: string[],
  filename: string,
): string {
  const { page: _page, ...rest } = params;
  return queryString([
    ...agentQueryEntries(collection, agentQuery(rest, timezone)),
    ['header', header.map((label) => label.replace(/,/g, ' ')).join(',')],
    ['filename', filename],
  ]);
}

/** A path segment: collection and relation names and packed ids are percent-encoded (§1.1). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** A selection of records (§6.9). */
export interface Selection {
  ids: string[];
  /** Every record matching `filters`/`search`/`segment`, except `ids`. */
  allRecords?: boolean;
  filters?: ConditionTree;
  search?: string;
  segment?: string;
  /** A related-data tab: only the records linked to this parent. */
  parent?: { collection: string; id: string; relation: string };
  /** How many records that is, when known (what the user is told; not sent). */
  count?: number;
}

/** The selection's scope: the list's filter, search and segment (and parent record). */
export function selectionScope(selection: Selection, timezone: string): SelectionScope {
  return {
    filters: compactTree(selection.filters),
    search: selection.search,
    segment: selection.segment,
    timezone,
    parent: selection.parent,
  };
}

/** The attributes of a selection body (§6.9): `ids` are the exclusions of an all-records one. */
export function selectionAttributes(
  collection: string,
  selection: Selection,
  timezone: string,
): Record<string, unknown> {
  return selectionBody(collection, selection, timezone).data.attributes;
}

/** A selection body (§6.9). */
export function selectionBody(collection: string, selection: Selection, timezone: string) {
  return agentSelectionBody(
    collection,
    selection.allRecords
      ? { allRecords: true, excludedIds: selection.ids }
      : { ids: selection.ids },
    selectionScope(selection, timezone),
  );
}
