import type { ErrorRequestHandler } from 'express';

import type { Logger } from '../../toolkit/interfaces/logger';
import { classifyError } from './error-status';

/** One element of the error envelope (agent-http-protocol §14.1). */
export interface ErrorEnvelopeItem {
  name: string;
  detail: string;
  status: number;
  data?: Record<string, unknown>;
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

/**
 * The error translator of the pipeline (agent-http-protocol §1.5 step 5): every error raised by a
 * route becomes a JSON:API error body. Unexpected errors are logged (with their stack, server
 * side only) and answered `Unexpected error`.
 */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    if (response.headersSent) {
      logger(
        'Error',
        `${request.method} ${request.originalUrl} failed after the answer began`,
        error,
      );
      response.destroy();
      return;
    }
    const envelope = toErrorEnvelope(error);
    const status = envelope.errors[0].status;
    if (status >= 500) logger('Error', `${request.method} ${request.path} failed`, error);
    response.status(status).json(envelope);
  };
}
