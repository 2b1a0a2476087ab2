import type { OperationCaller } from '../../operations/context';
import { type Caller, callerIdentity } from '../../toolkit/caller';
import { getSessionClaims } from '../auth/authenticate';
import { type FlatQuery, readQuery } from '../../protocol/query/query-string';
import { parseTimezone } from '../../protocol/query/timezone';
import { correlationIdOf } from '../pipeline/correlation';
import type { HttpContext } from './http-context';
import type { HttpRequest, HttpResponse } from './node-http';

/**
 * One authenticated data request: who calls (an operation's caller), in which time zone, with
 * which parameters.
 */
export interface DataRequest extends OperationCaller {
  readonly context: HttpContext;
  readonly query: FlatQuery;
  readonly request: HttpRequest;
}

const CONTEXT_URL = /^https?:\/\/[^/]+\/([^/?#]+)\/([^/?#]+)/;

/** A correlation kind (Canopy's own header): a short lower-case word such as `revert`. */
const CORRELATION_KIND = /^[a-z][a-z0-9_-]{0,31}$/;

/** A single-valued request header, or `undefined`. */
function headerOf(request: HttpRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * Opens a data route (§1.7): reads the verified claims, requires `timezone`, builds the caller
 * (request id: the correlation id of the pipeline's stage, the `x-forest-correlation-id` the
 * client sent when well-formed, else a fresh one, echoed either way; the correlation kind of `x-canopy-correlation-kind`, §1.6; project and
 * environment from `Forest-Context-Url`; client IP). A client sending the same id on several
 * requests groups their writes under one correlation in the history (a revert does).
 */
export function openDataRequest(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
): DataRequest {
  const claims = getSessionClaims(request);
  const query = readQuery(request);
  const timezone = parseTimezone(query.timezone);
  // The pipeline's correlation stage has set it (§1.5).
  const requestId = correlationIdOf(request, response);
  const kind = headerOf(request, 'x-canopy-correlation-kind')?.toLowerCase();
  // Added to the identity in place: in node 20's V8, a literal spreading an object then adding
  // properties (`{...identity, timezone}`) takes a slow path, microseconds per request (more than
  // the rest of this function).
  const caller: Caller = Object.assign(callerIdentity(claims), {
    timezone,
    requestId,
    request: {
      ip: String(request.headers['x-forwarded-for'] ?? request.socket.remoteAddress ?? ''),
    },
  });
  if (kind && CORRELATION_KIND.test(kind)) caller.correlationKind = kind;
  const contextUrl = request.headers['forest-context-url'];
  const match = typeof contextUrl === 'string' ? CONTEXT_URL.exec(contextUrl) : null;
  if (match) {
    caller.project = decodeSafely(match[1] as string);
    caller.environment = decodeSafely(match[2] as string);
  }
  return { context, claims, caller, query, request };
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export { findCollection } from '../../operations/context';
