import type { NextFunction, Request, Response } from 'express';
import { isApiError } from '../errors';
import type { ServerContext } from '../http/context';

/** Errors of agent routes in the shape the agent reads: `{"errors": [{"detail"}]}`. */
export function agentErrorHandler(ctx: ServerContext) {
  return (error: unknown, request: Request, response: Response, _next: NextFunction) => {
    if (isApiError(error)) {
      response.status(error.status).json({ errors: [{ detail: error.message }] });
      return;
    }
    const parseFailed = (error as { type?: string }).type === 'entity.parse.failed';
    if (parseFailed) {
      response.status(400).json({ errors: [{ detail: 'The request body is not valid JSON.' }] });
      return;
    }
    (request.log ?? ctx.logger).error({ err: error }, 'agent protocol request failed');
    response.status(500).json({ errors: [{ detail: 'Internal error; see the server logs.' }] });
  };
}
