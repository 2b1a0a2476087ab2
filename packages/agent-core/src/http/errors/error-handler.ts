import { randomBytes } from 'node:crypto';

import type { Logger } from '../../toolkit/interfaces/logger';
import { redactUrl } from '../pipeline/access-log';
import { sendJson } from '../pipeline/send-json';
import type { HttpRequest, HttpResponse } from '../request/node-http';
import { classifyError } from '../../protocol/errors/error-status';

/** One element of the error envelope (agent-http-protocol §14.1). */
export interface ErrorEnvelopeItem {
  name: string;
  detail: string;
  status: number;
  data?: Record<string, unknown>;
  /** A 5xx only: the short reference the agent logged the error under. */
  meta?: { reference: string };
}

/** Builds the `{errors: [...]}` body for any thrown value. */
export function toErrorEnvelope(error: unknown): { errors: [ErrorEnvelopeItem] } {
  const { status, exposed } = classifyError(error);
  const candidate = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    data?: unknown;
  };
  const name = typeof candidate.name === 'string' && candidate.name ? candidate.name : 'Error';
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  const item: ErrorEnvelopeItem = {
    name,
    detail: exposed && message ? message : 'Unexpected error',
    status,
  };
  if (exposed && typeof candidate.data === 'object' && candidate.data !== null) {
    item.data = candidate.data as Record<string, unknown>;
  }
  return { errors: [item] };
}

/** Answers one error that ended a request (see {@link createErrorTranslator}). */
export type ErrorTranslator = (
  error: unknown,
  request: HttpRequest,
  response: HttpResponse,
) => void;

/**
 * The error translator of the pipeline (agent-http-protocol §1.5 step 5): every error raised by a
 * route becomes a JSON:API error body. Unexpected errors are logged (with their stack, server
 * side only) and answered `Unexpected error` with `meta.reference`, a short random reference that
 * the log line carries too, so a user can quote it and an operator find the cause. It uses node's request and
 * response API only.
 */
export function createErrorTranslator(logger: Logger): ErrorTranslator {
  return (error, request, response) => {
    const url = request.originalUrl ?? request.url ?? '';
    if (response.headersSent) {
      logger('Error', `${request.method} ${redactUrl(url)} failed after the answer began`, error);
      response.destroy();
      return;
    }
    const envelope = toErrorEnvelope(error);
    const status = envelope.errors[0].status;
    if (status >= 500) {
      const reference = randomBytes(4).toString('hex');
      envelope.errors[0].meta = { reference };
      const queryStart = url.indexOf('?');
      logger(
        'Error',
        `${request.method} ${queryStart < 0 ? url : url.slice(0, queryStart)} failed (reference ${reference})`,
        error,
      );
    }
    sendJson(response, envelope, status);
  };
}
