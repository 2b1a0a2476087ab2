import { UnprocessableError, ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { Filter } from '../../toolkit/query/filter';
import { HttpForbiddenError } from '../errors/http-errors';
import { parseFilters } from '../query/filters';
import type { DataRequest } from './data-request';

/** The filtering parameters of a request (§6.1), from the query string or a subset query. */
export interface FilterParameters {
  filters?: unknown;
  search?: unknown;
  searchExtended?: unknown;
  segment?: unknown;
  segmentQuery?: unknown;
  connectionName?: unknown;
}

const UNION_SEPARATOR = '/*MULTI-SEGMENTS-QUERIES-UNION*/ UNION ';
const PRIVILEGED = new Set(['admin', 'developer', 'editor']);

function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : String(value);
}

function normalizeSql(query: string): string {
  return query.trim().replace(/;\s*$/, '').trim();
}

/** Whether `searchExtended` asks for related search (§6.6): anything but empty, 0 or false. */
export function isTruthyFlag(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  const text = String(value);
  return text !== '' && text !== '0' && text !== 'false';
}

/**
 * Builds the filter of a read or write (§6, §15.5): request filters, search, segment and live SQL
 * segment, intersected with the collection's row-level scope (unless `withScope` is false) and
 * with `extra` trees (ids, parent links).
 */
export async function buildFilter(
  data: DataRequest,
  collection: Collection,
  parameters: FilterParameters,
  extra: readonly (ConditionTree | null)[] = [],
  options: { withScope?: boolean } = {},
): Promise<Filter> {
  // `schema.searchable` only says whether search is native: the customizer's search layer
  // emulates it on top of any collection (data-semantics §3.9), so the search is passed down and
  // a collection that cannot search refuses it with its own error.
  const search = asText(parameters.search)?.trim() || null;
  const segment = asText(parameters.segment) || null;
  if (segment && !collection.schema.segments.includes(segment)) {
    throw new ValidationError(
      `Invalid segment: "${segment}" (segments of '${collection.name}': [${collection.schema.segments.join(', ')}])`,
    );
  }
  const tree = parseFilters(collection, parameters.filters);
  let scope =
    options.withScope === false ? null : data.context.permissions.getScope(data.claims, collection);
  if (scope instanceof Promise) scope = await scope;
  const liveQuerySegment = await readLiveQuerySegment(data, collection, parameters);
  return new Filter({
    conditionTree: ConditionTreeFactory.intersect(tree, scope, ...extra),
    search,
    searchExtended: search ? isTruthyFlag(parameters.searchExtended) : false,
    segment,
    liveQuerySegment,
  });
}

async function readLiveQuerySegment(
  data: DataRequest,
  collection: Collection,
  parameters: FilterParameters,
): Promise<Filter['liveQuerySegment']> {
  const query = asText(parameters.segmentQuery);
  if (!query) return null;
  const connectionName = asText(parameters.connectionName);
  if (!connectionName) throw new UnprocessableError('Missing native query connection attribute');
  if (!PRIVILEGED.has(data.claims.permissionLevel)) {
    const rendering = await data.context.permissions.getRendering(data.claims);
    const allowed = new Set(
      (rendering.collections?.[collection.name]?.segments ?? []).map(normalizeSql),
    );
    const parts = query.split(UNION_SEPARATOR).map(normalizeSql);
    if (!parts.every((part) => allowed.has(part))) throw new HttpForbiddenError();
  }
  const parts = query.split(UNION_SEPARATOR).map(normalizeSql);
  if (parts.some((part) => part.includes(';') || !/^select\b[\s\S]*\bfrom\b/i.test(part))) {
    throw new UnprocessableError(
      'Invalid segment query: it must be a single "SELECT … FROM …" statement',
    );
  }
  const contextVariables = await data.context.permissions.getContextVariables(data.claims);
  return { query, connectionName, contextVariables: { ...contextVariables } };
}
