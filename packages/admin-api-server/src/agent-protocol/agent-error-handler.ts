import type { NextFunction, Request, Response } from 'express';
import { toApiError } from '../errors';
import type { ServerContext } from '../http/context';

/**
 * Errors of agent routes in the shape the agent reads: `{"errors": [{"detail"}]}`. The status
 * comes from the server's one error translator, so what a client caused is a 4xx here too.
 */
export function agentErrorHandler(ctx: ServerContext) {
  return (error: unknown, request: Request, response: Response, _next: NextFunction) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      (request.log ?? ctx.logger).error({ err: error }, 'agent protocol request failed');
    }
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const detail =
      apiError.status >= 500 ? 'Internal error; see the server logs.' : apiError.message;
    response
      .set(apiError.headers)
      .status(apiError.status)
      .json({ errors: [{ detail }] });
  };
}
