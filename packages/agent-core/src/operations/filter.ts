import {
  ForbiddenError,
  UnprocessableError,
  ValidationError,
} from '../toolkit/errors/canopy-error';
import { parseFilters } from './query/filters';
import type { Collection } from '../toolkit/interfaces/collection';
import type { ConditionTree } from '../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { Filter } from '../toolkit/query/filter';
import type { OperationCaller, OperationContext } from './context';

/**
 * The filtering parameters of a request (§6.1), from the query string, a subset query or an MCP
 * tool: `filters` is the wire condition tree (a JSON string or the parsed object).
 */
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
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parameters: FilterParameters,
  extra: readonly (ConditionTree | null)[] = [],
  options: { withScope?: boolean } = {},
): Promise<Filter> {
  const parts = await readParts(context, who, collection, parameters);
  const scope =
    options.withScope === false ? null : await context.permissions.getScope(who.claims, collection);
  return toFilter(parts, scope, extra);
}

/**
 * The filter of an action's selection, with and without the caller's scope (the approval path
 * checks conditions on the unscoped selection, §9.7): the request's parameters are parsed and
 * the live query segment is read once for both.
 */
export async function buildScopedAndUnscoped(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parameters: FilterParameters,
  extra: readonly (ConditionTree | null)[],
): Promise<{ scoped: Filter; unscoped: Filter }> {
  const parts = await readParts(context, who, collection, parameters);
  const unscoped = toFilter(parts, null, extra);
  const scope = await context.permissions.getScope(who.claims, collection);
  return { scoped: scope ? toFilter(parts, scope, extra) : unscoped, unscoped };
}

/** A request's filtering parameters, parsed and checked, before any scope or extra tree. */
interface FilterParts {
  readonly tree: ConditionTree | null;
  readonly search: string | null;
  readonly searchExtended: boolean;
  readonly segment: string | null;
  readonly liveQuerySegment: Filter['liveQuerySegment'];
}

async function readParts(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parameters: FilterParameters,
): Promise<FilterParts> {
  // `schema.searchable` only says whether search is native: the customizer's search layer
  // emulates it on top of any collection (data-semantics §3.9), so the search is passed down and
  // a collection that cannot search refuses it with its own error.
  const search = asText(parameters.search)?.trim() || null;
  const named = asText(parameters.segment) || null;
  const fromConsole = await readConsoleSegment(context, who, collection, named);
  const segment = fromConsole === undefined ? named : null;
  const requested = parseFilters(collection, parameters.filters);
  const tree = fromConsole ? ConditionTreeFactory.intersect(requested, fromConsole) : requested;
  const liveQuerySegment = await readLiveQuerySegment(context, who, collection, parameters);
  const searchExtended = search ? isTruthyFlag(parameters.searchExtended) : false;
  return { tree, search, searchExtended, segment, liveQuerySegment };
}

/**
 * The segment a request names (§6.7): `undefined` for none or a code-defined segment (which the
 * segment layer applies, and which wins over a Console segment of the same name), otherwise the
 * filter of the Console segment of that name in the caller's rendering (`null`: every record).
 * A name that is neither is refused as before.
 */
async function readConsoleSegment(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  name: string | null,
): Promise<ConditionTree | null | undefined> {
  if (!name || collection.schema.segments.includes(name)) return undefined;
  const tree = await context.permissions.getFilterSegment(who.claims, collection, name);
  if (tree === undefined) {
    throw new ValidationError(
      `Invalid segment: "${name}" (segments of '${collection.name}': [${collection.schema.segments.join(', ')}])`,
    );
  }
  return tree;
}

function toFilter(
  parts: FilterParts,
  scope: ConditionTree | null,
  extra: readonly (ConditionTree | null)[],
): Filter {
  const { tree, ...rest } = parts;
  return new Filter({
    conditionTree: ConditionTreeFactory.intersect(tree, scope, ...extra),
    ...rest,
  });
}

async function readLiveQuerySegment(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parameters: FilterParameters,
): Promise<Filter['liveQuerySegment']> {
  const query = asText(parameters.segmentQuery);
  if (!query) return null;
  const connectionName = asText(parameters.connectionName);
  if (!connectionName) throw new UnprocessableError('Missing native query connection attribute');
  if (!PRIVILEGED.has(who.claims.permissionLevel)) {
    const rendering = await context.permissions.getRendering(who.claims);
    const allowed = new Set(
      (rendering.collections?.[collection.name]?.segments ?? []).map(normalizeSql),
    );
    const parts = query.split(UNION_SEPARATOR).map(normalizeSql);
    if (!parts.every((part) => allowed.has(part))) throw new ForbiddenError();
  }
  const parts = query.split(UNION_SEPARATOR).map(normalizeSql);
  if (parts.some((part) => part.includes(';') || !/^select\b[\s\S]*\bfrom\b/i.test(part))) {
    throw new UnprocessableError(
      'Invalid segment query: it must be a single "SELECT … FROM …" statement',
    );
  }
  const contextVariables = await context.permissions.getContextVariables(who.claims);
  return { query, connectionName, contextVariables: { ...contextVariables } };
}
