import type { HttpRequest, HttpResponse } from '../request/node-http';

/**
 * A route of the table, served on node's request and response: `params` are the decoded values
 * of the pattern's `:name` segments, in order. A private route runs after the session check, the
 * IP whitelist and the body (agent-http-protocol §1.5); what it throws goes to the error
 * translator.
 */
export type TableRouteHandler = (
  request: HttpRequest,
  response: HttpResponse,
  params: readonly string[],
) => Promise<void>;

/** How a route is served. */
export interface RouteOptions {
  /**
   * A public route (§1.5: the healthcheck, the login routes): served before the session check,
   * without the IP whitelist or the body stage (a public route that needs a body reads its own).
   */
  readonly public?: boolean;
}

interface Route {
  readonly method: string;
  /** A literal segment, or `null` for a `:name` parameter. */
  readonly segments: readonly (string | null)[];
  readonly handler: TableRouteHandler;
  readonly public: boolean;
}

/**
 * A request under the mount point: the route that serves it with its decoded parameters, or no
 * route (`handler: null`: the plain-text 404 once authenticated), or the error of a parameter
 * that cannot be decoded (`error`, answered once authenticated, as express's router did).
 */
export interface RouteMatch {
  readonly handler: TableRouteHandler | null;
  readonly public: boolean;
  readonly params: readonly string[];
  readonly error?: Error;
}

/** Paths deeper than this match no route (the deepest route has 6 segments). */
const MAX_SEGMENTS = 8;

const NO_PARAMS: readonly string[] = [];
const UNROUTED: RouteMatch = { handler: null, public: false, params: NO_PARAMS };

/**
 * The agent's routes under its mount point, matched in the order they were added, with the
 * matching rules of express's router that clients may rely on: method (`HEAD` is served by the
 * `GET` route), then path segments, case-sensitive, one optional trailing slash, `:name` segments
 * URI-decoded. A path whose segment fits a route but cannot be decoded gets a 400 (the first
 * fitting route decides, whatever its method), as it did with express.
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
  add(method: string, pattern: string, handler: TableRouteHandler, options?: RouteOptions): this {
    this.routes.push(route(method, pattern, handler, options));
    return this;
  }

  /**
   * Adds a feature's route (audit trail, AI proxy): after the features' routes added before, ahead
   * of the agent's own, whose `/:collection/…` patterns would otherwise take its paths.
   */
  addFeature(method: string, pattern: string, handler: TableRouteHandler): this {
    this.routes.splice(this.features, 0, route(method, pattern, handler));
    this.features += 1;
    return this;
  }

  /**
   * The route serving `request`; a match without a handler when no route does (see
   * {@link RouteMatch}); `null` when the request is outside the mount point.
   */
  match(request: HttpRequest): RouteMatch | null {
    const segments = this.splitPath(request.url ?? '');
    if (segments === null) return null;
    if (segments === false) return UNROUTED;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    for (const route of this.routes) {
      if (!fits(route.segments, segments)) continue;
      const params = decodeParams(route.segments, segments);
      if (params instanceof Error) return { ...UNROUTED, error: params };
      if (route.method === method || route.method === request.method) {
        return { handler: route.handler, public: route.public, params };
      }
    }
    return UNROUTED;
  }

  /**
   * The raw segments of the path under the mount point; `false` for a path under it that no
   * route can match (an empty segment, too deep); `null` outside the mount point.
   */
  private splitPath(url: string): string[] | false | null {
    const { base } = this;
    if (!url.startsWith(base)) return null;
    const next = url.charCodeAt(base.length);
    // `/forest` itself, with or without a query string.
    if (isPathEnd(next)) return [];
    if (next !== 0x2f /* / */) return null;
    const segments: string[] = [];
    let start = base.length + 1;
    for (let index = start; index <= url.length; index += 1) {
      const code = index < url.length ? url.charCodeAt(index) : 0x3f; /* ? */
      // A fragment ends the path as `?` does (express's URL parser drops it).
      if (code === 0x3f /* ? */ || code === 0x2f /* / */ || code === 0x23 /* # */) {
        const last = code !== 0x2f;
        if (index === start) {
          // An empty segment: only a trailing slash (which non-strict routing ignores), or the
          // root's `//`, which express's `/` route took too.
          if (last) break;
          if (segments.length > 0 || !isPathEnd(url.charCodeAt(index + 1))) return false;
          return segments;
        } else {
          segments.push(url.slice(start, index));
        }
        if (segments.length > MAX_SEGMENTS) return false;
        if (last) break;
        start = index + 1;
      }
    }
    return segments;
  }
}

/** Whether `code` (a character code, `NaN` past the end) ends the path. */
function isPathEnd(code: number): boolean {
  return Number.isNaN(code) || code === 0x3f /* ? */ || code === 0x23; /* # */
}

function route(
  method: string,
  pattern: string,
  handler: TableRouteHandler,
  options?: RouteOptions,
): Route {
  const segments = pattern
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith(':') ? null : segment));
  return { method, segments, handler, public: options?.public === true };
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

/** The decoded `:name` segments, or the 400 error of the first that cannot be decoded. */
function decodeParams(
  pattern: readonly (string | null)[],
  raw: readonly string[],
): string[] | Error {
  const params: string[] = [];
  for (let index = 0; index < pattern.length; index += 1) {
    if (pattern[index] !== null) continue;
    const segment = raw[index] as string;
    if (!segment.includes('%')) {
      params.push(segment);
      continue;
    }
    try {
      params.push(decodeURIComponent(segment));
    } catch {
      // The error express's router raised: an exposed 400 (errors/error-status.ts).
      return Object.assign(new URIError(`Failed to decode param '${segment}'`), {
        status: 400,
        statusCode: 400,
      });
    }
  }
  return params;
}
