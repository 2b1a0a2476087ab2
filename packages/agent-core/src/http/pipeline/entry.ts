import express, { type RequestHandler } from 'express';

import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';
import { assertJsonBounds } from '../../toolkit/validation/json-bounds';
import { type AccessLogStep, accessLogStep } from './access-log';
import { answerBodyError, DEFAULT_BODY_LIMIT, METHODS_WITH_BODY } from './body-parser';
import { type CorsStep, corsStep } from './cors';
import type { HttpRequest, HttpResponse } from '../request/node-http';

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
  const read = bodyStep(limit);
  return (request, response, next) => {
    if (!METHODS_WITH_BODY.has(request.method)) {
      next();
      return;
    }
    read(request, response).then((answered) => {
      if (!answered) next();
    }, next);
  };
}

/**
 * The body stage on node's request and response: sets `request.body` and resolves `false`, or
 * answers a body-parser failure and resolves `true`; rejects with the error of a body nested too
 * deep (or any other failure) for the error translator. For the methods that carry a body.
 */
export type BodyStep = (request: HttpRequest, response: HttpResponse) => Promise<boolean>;

/** The JSON body reader of {@link bodyMiddleware}, without express. */
export function bodyStep(limit = DEFAULT_BODY_LIMIT): BodyStep {
  const parse = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
  }) as unknown as (
    request: HttpRequest,
    response: HttpResponse,
    done: (error?: unknown) => void,
  ) => void;
  return (request, response) =>
    new Promise((resolve, reject) => {
      parse(request, response, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          if (answerBodyError(error, response)) resolve(true);
          else reject(error);
          return;
        }
        try {
          const body = (request as HttpRequest & { body?: unknown }).body;
          assertJsonBounds(body, { maxDepth: BODY_MAX_DEPTH }, 'the request body');
          resolve(false);
        } catch (bounds) {
          reject(bounds);
        }
      });
    });
}
