import express, { type RequestHandler } from 'express';

import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';
import { assertJsonBounds } from '../../toolkit/validation/json-bounds';
import { type AccessLogStep, accessLogStep } from './access-log';
import { answerBodyError, DEFAULT_BODY_LIMIT, METHODS_WITH_BODY } from './body-parser';
import { type CorsStep, corsStep } from './cors';

/**
 * Nesting limit of a request body: far above any document of the protocol (a record with JSON
 * attributes, a chart with a condition tree), far below what recursive code can walk.
 */
export const BODY_MAX_DEPTH = 128;

/** The first stages of §1.5, shared by the express pipeline and the hot routes. */
export interface EntrySteps {
  readonly cors: CorsStep;
  /** `null` when the logger level drops access lines. */
  readonly accessLog: AccessLogStep | null;
}

/** Builds the CORS and access-log steps of one router. */
export function entrySteps(
  logger: Logger,
  options: { corsOrigins?: readonly string[]; loggerLevel?: LoggerLevel },
): EntrySteps {
  return {
    cors: corsStep(options.corsOrigins),
    accessLog: accessLogStep(logger, options.loggerLevel),
  };
}

/**
 * The first stages of every request as one middleware: CORS (a preflight ends here), then the
 * access log. The body is not read here: {@link bodyMiddleware} reads it once the caller is
 * authenticated.
 */
export function entryMiddleware(steps: EntrySteps): RequestHandler {
  const { cors, accessLog } = steps;
  return (request, response, next) => {
    if (cors(request, response)) return;
    accessLog?.(request, response);
    next();
  };
}

/**
 * JSON body parsing for the methods that carry a body (§1.2), with its plain-text 400 and 413
 * (past `limit`), and a JSON:API 400 for a body nested deeper than {@link BODY_MAX_DEPTH} levels.
 * Mounted after the session check, so that nobody reads or buffers a body for a caller who is
 * not authenticated (the login route mounts its own, with a small limit).
 */
export function bodyMiddleware(limit = DEFAULT_BODY_LIMIT): RequestHandler {
  const parse = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  return (request, response, next) => {
    if (!METHODS_WITH_BODY.has(request.method)) {
      next();
      return;
    }
    parse(request, response, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        if (!answerBodyError(error, response)) next(error);
        return;
      }
      try {
        assertJsonBounds(request.body, { maxDepth: BODY_MAX_DEPTH }, 'the request body');
      } catch (bounds) {
        next(bounds);
        return;
      }
      next();
    });
  };
}
