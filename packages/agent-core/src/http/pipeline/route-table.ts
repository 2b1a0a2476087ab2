import type { HttpRequest, HttpResponse } from '../request/node-http';

/**
 * A route of the table, served on node's request and response: `params` are the decoded values
 * of the pattern's `:name` segments, in order. It runs after the session check, the IP whitelist
 * and the body (agent-http-protocol §1.5); what it throws goes to the error translator.
 */
export type TableRouteHandler = (
  request: HttpRequest,
  response: HttpResponse,
  params: readonly string[],
) => Promise<void>;

/** Where a matched request goes: a handler of the table, or the express routes. */
export type RouteTarget = TableRouteHandler | typeof EXPRESS_ROUTES;

/** The target of a route that express's routes serve (the table only reserves its path). */
export const EXPRESS_ROUTES = Symbol('expressRoutes');

interface Route {
  readonly method: string;
  /** A literal segment, or `null` for a `:name` parameter. */
  readonly segments: readonly (string | null)[];
  readonly target: RouteTarget;
}

/** A request the table serves: its route's target and the decoded parameters. */
export interface RouteMatch {
  readonly target: RouteTarget;
  readonly params: readonly string[];
}

/** Paths deeper than this go to the express routes without being looked at. */
const MAX_SEGMENTS = 8;

/**
 * The agent's routes under its mount point, matched in the order they were added: method, then
 * path segments as express's router reads them (case-sensitive, one optional trailing slash,
 * `:name` segments URI-decoded). A route added with {@link EXPRESS_ROUTES} keeps its path for
 * express's routes, ahead of the table's later routes. `match` returns `null` — the request then
 * goes to the express routes — for a path it does not read exactly as express would: outside the
 * mount point, an empty segment, a character for which express's URL parser takes its slow path,
 * or an undecodable escape in a parameter.
 *
 * @example
 * table.add('GET', '/:collection/count', (request, response, [name]) => serveCount(…));
 */
export class RouteTable {
  private readonly routes: Route[] = [];
  private features = 0;
  private readonly base: string;

  /** `mountPath`: the normalized prefix (`/` or `/forest`). */
  constructor(mountPath: string) {
    this.base = mountPath === '/' ? '' : mountPath;
  }

  /** Adds a route after the existing ones; `pattern` is relative to the mount point. */
  add(method: string, pattern: string, target: RouteTarget): this {
    this.routes.push(route(method, pattern, target));
    return this;
  }

  /**
   * Adds a feature's route (audit trail, AI proxy): after the features' routes added before, ahead
   * of the agent's own, whose `/:collection/…` patterns would otherwise take its paths.
   */
  addFeature(method: string, pattern: string, target: RouteTarget): this {
    this.routes.splice(this.features, 0, route(method, pattern, target));
    this.features += 1;
    return this;
  }

  /** The first route matching `request`, or `null` (see the class). */
  match(request: HttpRequest): RouteMatch | null {
    const segments = this.splitPath(request.url ?? '');
    if (!segments) return null;
    const method = request.method;
    for (const route of this.routes) {
      if (route.method !== method || !fits(route.segments, segments)) continue;
      const params = decodeParams(route.segments, segments);
      return params && { target: route.target, params };
    }
    return null;
  }

  /** The raw segments of the path under the mount point, or `null` (see the class). */
  private splitPath(url: string): string[] | null {
    const { base } = this;
    if (!url.startsWith(base) || url.charCodeAt(base.length) !== 0x2f /* / */) return null;
    const segments: string[] = [];
    let start = base.length + 1;
    for (let index = start; index <= url.length; index += 1) {
      const code = index < url.length ? url.charCodeAt(index) : 0x3f; /* ? */
      if (code === 0x3f /* ? */ || code === 0x2f /* / */) {
        const last = code === 0x3f;
        if (index === start) {
          // An empty segment: only the one trailing slash that non-strict routing ignores.
          if (!last || segments.length === 0) return null;
        } else {
          segments.push(url.slice(start, index));
        }
        if (segments.length > MAX_SEGMENTS) return null;
        if (last) break;
        start = index + 1;
        continue;
      }
      // Characters for which express's URL parser takes its slow path: leave them to it.
      if (code <= 0x20 || code === 0x23 || code === 0xa0 || code === 0xfeff) return null;
    }
    return segments;
  }
}

function route(method: string, pattern: string, target: RouteTarget): Route {
  const segments = pattern
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith(':') ? null : segment));
  return { method, segments, target };
}

/** Whether the raw segments have the pattern's length and literals. */
function fits(pattern: readonly (string | null)[], raw: readonly string[]): boolean {
  if (pattern.length !== raw.length) return false;
  for (let index = 0; index < pattern.length; index += 1) {
    const literal = pattern[index];
    if (literal !== null && literal !== raw[index]) return false;
  }
  return true;
}

/** The decoded `:name` segments, or `null` when one cannot be decoded. */
function decodeParams(
  pattern: readonly (string | null)[],
  raw: readonly string[],
): string[] | null {
  const params: string[] = [];
  for (let index = 0; index < pattern.length; index += 1) {
    if (pattern[index] !== null) continue;
    const decoded = decodeSegment(raw[index] as string);
    if (decoded === null) return null;
    params.push(decoded);
  }
  return params;
}

/** A path segment decoded as express decodes route parameters; `null` when it cannot be. */
function decodeSegment(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
