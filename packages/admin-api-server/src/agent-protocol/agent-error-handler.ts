import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, logServerError, toApiError } from '../errors';
import type { ServerContext } from '../context';

/** The path prefixes of the agent-facing protocol (platform protocol section 11). */
export const AGENT_PROTOCOL_PREFIXES = ['/forest', '/liana', '/api'];

/**
 * Errors of agent routes in the shape agents read (platform protocol section 1):
 * `{"errors": [{"detail", "status"}]}`. The status comes from the server's one error translator, so
 * what a client caused (validation, unreadable or oversized bodies) is a 4xx here too; anything
 * else is logged and answered as a 500 whose `meta.reference` is the one of the log line.
 */
export function agentErrorHandler(ctx: ServerContext): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const apiError = toApiError(error, { embeddedStore: ctx.config.database.kind === 'embedded' });
    logServerError(request.log ?? ctx.logger, apiError, error, 'agent protocol request failed');
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const item: { detail: string; status: number; meta?: { reference: string } } = {
      detail: apiError.message,
      status: apiError.status,
    };
    if (apiError.reference) item.meta = { reference: apiError.reference };
    response
      .set(apiError.headers)
      .status(apiError.status)
      .json({ errors: [item] });
  };
}

/** 404 for agent-protocol paths no route serves, in the agents' error shape. */
export function agentNotFoundHandler(): RequestHandler {
  return (request, _response, next) => {
    next(
      new ApiError(
        404,
        'route_not_found',
        `No route of the platform protocol serves ${request.method} ${request.originalUrl.split('?')[0]}.`,
      ),
    );
  };
}
