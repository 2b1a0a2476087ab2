import { randomUUID } from 'node:crypto';

import type { OperationCaller } from '../../operations/context';
import { type Caller, callerIdentity } from '../../toolkit/caller';
import { getSessionClaims } from '../auth/authenticate';
import { type FlatQuery, readQuery } from '../../protocol/query/query-string';
import { parseTimezone } from '../../protocol/query/timezone';
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

/**
 * Opens a data route (§1.7): reads the verified claims, requires `timezone`, builds the caller
 * (fresh request id, echoed as `x-forest-correlation-id`; project and environment from
 * `Forest-Context-Url`; client IP).
 */
export function openDataRequest(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
): DataRequest {
  const claims = getSessionClaims(request);
  const query = readQuery(request);
  const timezone = parseTimezone(query.timezone);
  const requestId = randomUUID();
  response.setHeader('x-forest-correlation-id', requestId);
  const caller: Caller = {
    ...callerIdentity(claims),
    timezone,
    requestId,
    request: {
      ip: String(request.headers['x-forwarded-for'] ?? request.socket.remoteAddress ?? ''),
    },
  };
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
