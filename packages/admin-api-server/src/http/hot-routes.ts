import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import etag from 'etag';
import { authenticateApplicationToken } from '../auth/require-application-token';
import {
  bearerToken,
  verifyPlatformToken,
  type ApplicationTokenClaims,
} from '../auth/platform-tokens';
import { logServerError, toApiError, toErrorResponse } from '../errors';
import { startRequestLog } from '../logging/logger';
import { listActivityLogsPage } from '../routes/activity-logs/list';
import type { ServerContext } from './context';
import { holdsNul } from './body';
import { plainSecurityHeaders } from './security-headers';

/**
 * Serves a request on a hot route and returns `true`, or returns `false` having done nothing, and
 * express's pipeline serves it as before.
 */
export type HotRoutes = (req: IncomingMessage, res: ServerResponse) => boolean;

const LIST_PREFIX = '/v1/project/';
const ENVIRONMENT = '/environment/';
const ACTIVITY_LOGS = '/activity-logs';

/**
 * The public API's hottest read — `GET /v1/project/:projectName/environment/:environmentName/activity-logs`
 * with an application token — served straight from node's request, before express sets up its
 * request and response and walks its middleware and routers. It runs what express runs for that
 * route, in its order: the request log and `Request-Id`, helmet's headers (precomputed once, see
 * {@link plainSecurityHeaders}), the application-token checks and rate limit
 * ({@link authenticateApplicationToken}), the query's validation and the page
 * ({@link listActivityLogsPage}), then the answer as `res.json` gives it (content type, length,
 * weak ETag: express's default `etag` setting, the only one createApp installs them with) or the
 * error as the error handler gives it.
 *
 * Any request it is not sure to answer as express would goes to express unchanged: another method
 * or path, a path express would read otherwise (case, trailing slash, characters for which the URL
 * parser takes its slow path, undecodable escapes), a NUL in the URL, HTTPS or a forwarded
 * protocol (helmet's headers differ), a conditional request (`If-None-Match`,
 * `If-Modified-Since`: express may answer 304), and any credential but a valid application token
 * (session and console tokens, missing, malformed or expired tokens): express decides those.
 */
export function createHotRoutes(ctx: ServerContext): HotRoutes {
  const securityHeaders = plainSecurityHeaders();

  function send(res: ServerResponse, status: number, text: string): void {
    // What express's res.json and res.send do for a JSON text, without a conditional request:
    // its default `etag` setting is this weak ETag of the body's UTF-8 bytes (the etag package,
    // as express uses it), computed here from the text without copying it into a Buffer.
    // The weak ETag starts with the body's length in hexadecimal: `W/"<length>-<hash>"`.
    const tag = etag(text, { weak: true });
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(parseInt(tag.slice(3, tag.indexOf('-')), 16)));
    res.setHeader('ETag', tag);
    res.end(text, 'utf8');
  }

  async function serveList(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
    projectName: string,
    environmentName: string,
  ): Promise<void> {
    let log = ctx.logger;
    try {
      log = startRequestLog(ctx.logger, req, res, () => path).log;
      for (const [name, value] of securityHeaders) res.setHeader(name, value);
      const access = await authenticateApplicationToken(
        ctx,
        'activity_logs:read',
        { authorization: req.headers.authorization, projectName, environmentName },
        res,
      );
      send(
        res,
        200,
        await listActivityLogsPage(
          ctx,
          access.project,
          access.environment!,
          parseQueryString(query),
        ),
      );
    } catch (error) {
      // The error handler's answer (src/errors/error-handler.ts).
      const apiError = toApiError(error, {
        embeddedStore: ctx.config.database.kind === 'embedded',
      });
      logServerError(log, apiError, error, 'request failed');
      if (res.headersSent) {
        res.destroy(error instanceof Error ? error : undefined);
        return;
      }
      for (const name in apiError.headers) res.setHeader(name, apiError.headers[name]!);
      const { status, body } = toErrorResponse(apiError);
      send(res, status, JSON.stringify(body));
    }
  }

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    if (!url.startsWith(LIST_PREFIX)) return false;
    const headers = req.headers;
    if (
      headers['x-forwarded-proto'] !== undefined ||
      headers['if-none-match'] !== undefined ||
      headers['if-modified-since'] !== undefined ||
      (req.socket as { encrypted?: boolean }).encrypted
    ) {
      return false;
    }
    // Only a valid application token: express decides every other credential.
    if (!isApplicationToken(headers.authorization, ctx)) return false;

    let pathEnd = url.length;
    for (let index = 1; index < url.length; index += 1) {
      const code = url.charCodeAt(index);
      if (code === 0x3f /* ? */) {
        if (pathEnd === url.length) pathEnd = index;
        continue;
      }
      // Characters for which express's URL parser (parseurl) takes its slow path.
      if (
        code === 0x09 ||
        code === 0x0a ||
        code === 0x0c ||
        code === 0x0d ||
        code === 0x20 ||
        code === 0x23 ||
        code === 0xa0 ||
        code === 0xfeff
      ) {
        return false;
      }
    }
    if (holdsNul(url)) return false;
    const path = url.slice(0, pathEnd);
    if (!path.endsWith(ACTIVITY_LOGS)) return false;
    // /v1/project/{project}/environment/{environment}/activity-logs, each name one non-empty segment.
    const names = path.slice(LIST_PREFIX.length, path.length - ACTIVITY_LOGS.length);
    const middle = names.indexOf(ENVIRONMENT);
    if (middle <= 0 || names.indexOf(ENVIRONMENT, middle + 1) >= 0) return false;
    const rawProject = names.slice(0, middle);
    const rawEnvironment = names.slice(middle + ENVIRONMENT.length);
    if (rawEnvironment === '' || rawProject.includes('/') || rawEnvironment.includes('/')) {
      return false;
    }
    const projectName = decodeSegment(rawProject);
    const environmentName = decodeSegment(rawEnvironment);
    if (projectName === null || environmentName === null) return false;
    const query = pathEnd < url.length ? url.slice(pathEnd + 1) : '';
    void serveList(req, res, path, query, projectName, environmentName);
    return true;
  };
}

/**
 * Whether `Authorization` holds an application token this server signed and that has not expired
 * (verified once, then remembered: see verifyPlatformToken). A JWT of any other type, an opaque
 * console token, or anything invalid is not.
 */
function isApplicationToken(header: string | undefined, ctx: ServerContext): boolean {
  if (header === undefined) return false;
  try {
    const token = bearerToken(header);
    if (!token.includes('.')) return false;
    verifyPlatformToken<ApplicationTokenClaims>(token, ctx.config.signingKeys, 'application');
    return true;
  } catch {
    return false;
  }
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
