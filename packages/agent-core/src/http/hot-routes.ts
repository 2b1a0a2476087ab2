import type { IpWhitelist } from '../platform/agent-services';
import type { SessionCheck } from './auth/authenticate';
import type { ErrorTranslator } from './errors/error-handler';
import { checkClientIp } from './ip-whitelist/ip-whitelist-guard';
import type { EntrySteps } from './pipeline/entry';
import type { HttpContext } from './request/http-context';
import type { HttpRequest, HttpResponse } from './request/node-http';
import { serveCount, serveGet, serveList } from './routes/records';

/**
 * Serves the three hot data routes — `GET /{c}` (list), `GET /{c}/count` and `GET /{c}/{id}` —
 * straight from the request line, without express's routers: one pass over the path, the stages
 * of §1.5 that apply to a GET in their order (CORS, access log, session check, IP whitelist), then
 * the route's adapter (the same function express calls, over the same operation); errors go to the same translator as every other route. Returns `false`,
 * having done nothing, for every other request (another method, another path, a path express
 * would read differently: empty or odd segments, undecodable escapes), which the express
 * pipeline then serves as before. They use node's request and response API only: the standalone
 * server hands them node's objects, before express has set them up.
 */
export type HotRoutes = (request: HttpRequest, response: HttpResponse) => boolean;

export interface HotRouteStages {
  readonly entry: EntrySteps;
  readonly checkSession: SessionCheck;
  readonly ipWhitelist: IpWhitelist | null;
  readonly translateError: ErrorTranslator;
}

const LIST = 0;
const COUNT = 1;
const GET = 2;

/** Builds the hot routes of a router mounted at `mountPath` (normalized: `/` or `/forest`). */
export function createHotRoutes(
  mountPath: string,
  context: HttpContext,
  stages: HotRouteStages,
): HotRoutes {
  const base = mountPath === '/' ? '' : mountPath;
  const baseLength = base.length;
  const { entry, checkSession, ipWhitelist, translateError } = stages;

  async function serve(
    route: number,
    name: string,
    id: string,
    request: HttpRequest,
    response: HttpResponse,
  ): Promise<void> {
    try {
      checkSession(request);
      if (ipWhitelist) checkClientIp(ipWhitelist, request);
      if (route === LIST) await serveList(context, request, response, name);
      else if (route === COUNT) await serveCount(context, request, response, name);
      else await serveGet(context, request, response, name, id);
    } catch (error) {
      translateError(error, request, response);
    }
  }

  return (request, response) => {
    if (request.method !== 'GET') return false;
    const url = request.url ?? '';
    // Under the mount point, case-sensitively, as express's `use(mountPath)` matches.
    if (!url.startsWith(base) || url.charCodeAt(baseLength) !== 0x2f /* / */) return false;
    // One or two non-empty segments, then an optional trailing slash (non-strict routing).
    let pathEnd = url.length;
    let slash1 = -1;
    let slash2 = -1;
    for (let index = baseLength + 1; index < url.length; index += 1) {
      const code = url.charCodeAt(index);
      if (code === 0x3f /* ? */) {
        pathEnd = index;
        break;
      }
      if (code === 0x2f /* / */) {
        if (slash1 < 0) slash1 = index;
        else if (slash2 < 0) slash2 = index;
        else return false;
        continue;
      }
      // Characters for which express's URL parser takes its slow path: leave them to it.
      if (code <= 0x20 || code === 0x23 || code === 0xa0 || code === 0xfeff) return false;
    }
    let stop = pathEnd;
    if (stop - 1 > baseLength && url.charCodeAt(stop - 1) === 0x2f) {
      stop -= 1;
      if (slash2 === stop) slash2 = -1;
      else if (slash1 === stop) slash1 = -1;
    }
    if (slash2 >= 0) return false;
    const rawName = url.slice(baseLength + 1, slash1 >= 0 ? slash1 : stop);
    const rawId = slash1 >= 0 ? url.slice(slash1 + 1, stop) : null;
    if (rawName === '' || rawId === '') return false;
    let route = LIST;
    if (rawId !== null) {
      // The GET routes with two segments that express tries first: login callback, API charts.
      if (rawName === '_charts' || (rawName === 'authentication' && rawId === 'callback')) {
        return false;
      }
      route = rawId === 'count' ? COUNT : GET;
    }
    const name = decodeSegment(rawName);
    const id = route === GET ? decodeSegment(rawId as string) : '';
    if (name === null || id === null) return false;

    if (entry.cors(request, response)) return true;
    entry.accessLog?.(request, response);
    void serve(route, name, id, request, response);
    return true;
  };
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
