/**
 * Query strings of the agent's data routes (agent protocol §6). Bracketed keys such as
 * `fields[orders]` and `page[size]` are literal key names: they are written as such, with only
 * the values percent-encoded.
 */
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

type Entry = [key: string, value: string];

function entries(collection: string, params: ListParams, timezone: string): Entry[] {
  const result: Entry[] = [['timezone', timezone]];
  if (params.fields?.length) {
    result.push([`fields[${collection}]`, params.fields.join(',')]);
    for (const [relation, fields] of Object.entries(params.relationFields ?? {})) {
      if (params.fields.includes(relation) && fields.length) {
        result.push([`fields[${relation}]`, fields.join(',')]);
      }
    }
  }
  const filters = compactTree(params.filters);
  if (filters) result.push(['filters', JSON.stringify(filters)]);
  if (params.search?.trim()) {
    result.push(['search', params.search.trim()]);
    if (params.searchExtended) result.push(['searchExtended', '1']);
  }
  if (params.segment) result.push(['segment', params.segment]);
  if (params.sort) result.push(['sort', params.sort]);
  if (params.page) {
    result.push(['page[number]', String(params.page.number)]);
    result.push(['page[size]', String(params.page.size)]);
  }
  return result;
}

function serialize(list: Entry[]): string {
  return list.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
}

/** `timezone=…&fields[orders]=…&filters=…&sort=…&page[number]=…&page[size]=…`. */
export function listQuery(collection: string, params: ListParams, timezone: string): string {
  return serialize(entries(collection, params, timezone));
}

/** The count route takes the filtering parameters only (§8.2). */
export function countQuery(collection: string, params: ListParams, timezone: string): string {
  const { filters, search, searchExtended, segment } = params;
  return serialize(entries(collection, { filters, search, searchExtended, segment }, timezone));
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
  return serialize([
    ...entries(collection, rest, timezone),
    ['header', header.map((label) => label.replace(/,/g, ' ')).join(',')],
    ['filename', filename],
  ]);
}

/** A path segment: collection and relation names and packed ids are percent-encoded (§1.1). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
