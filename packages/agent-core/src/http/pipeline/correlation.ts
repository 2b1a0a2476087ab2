import { randomUUID } from 'node:crypto';

import type { HttpRequest, HttpResponse } from '../request/node-http';

/** A correlation id a client may send: what fits the history's column (64), no spaces. */
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The response header of agent-http-protocol §1.6. */
const HEADER = 'x-forest-correlation-id';

/**
 * The correlation stage of §1.5 (step 3): every answer under the mount point but a preflight
 * carries `x-forest-correlation-id`, the id the request sent when well-formed, else a fresh
 * UUID. Answers the id (a data route makes it its caller's `requestId`, {@link correlationIdOf}).
 */
export function correlate(request: HttpRequest, response: HttpResponse): string {
  const sent = request.headers[HEADER];
  const trimmed = typeof sent === 'string' ? sent.trim() : undefined;
  const id = trimmed && CORRELATION_ID.test(trimmed) ? trimmed : randomUUID();
  response.setHeader(HEADER, id);
  return id;
}

/** The id the correlation stage gave the request (run here when it has not run). */
export function correlationIdOf(request: HttpRequest, response: HttpResponse): string {
  const given = response.getHeader(HEADER);
  return typeof given === 'string' ? given : correlate(request, response);
}
