import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';
import { assertJsonBounds } from '../../toolkit/validation/json-bounds';
import { type AccessLogStep, accessLogStep } from './access-log';
import { answerBodyError, DEFAULT_BODY_LIMIT } from './body-parser';
import { type CorsStep, corsStep } from './cors';
import { loadExpress } from './load-express';
import type { HttpRequest, HttpResponse } from '../request/node-http';

/**
 * Nesting limit of a request body: far above any document of the protocol (a record with JSON
 * attributes, a chart with a condition tree), far below what recursive code can walk.
 */
export const BODY_MAX_DEPTH = 128;

/** The first stages of §1.5, run on every request under the mount point. */
export interface EntrySteps {
  readonly cors: CorsStep;
  /** `null` when the logger level drops access lines. */
  readonly accessLog: AccessLogStep | null;
}

/** Builds the CORS and access-log steps of one pipeline. */
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
 * The body stage on node's request and response: sets `request.body` and resolves `false`, or
 * answers a body-parser failure and resolves `true`; rejects with the error of a body nested too
 * deep (or any other failure) for the error translator. For the methods that carry a body.
 */
export type BodyStep = (request: HttpRequest, response: HttpResponse) => Promise<boolean>;

type JsonParser = (
  request: HttpRequest,
  response: HttpResponse,
  done: (error?: unknown) => void,
) => void;

/**
 * JSON body parsing for the methods that carry a body (§1.2), with its plain-text 400 and 413
 * (past `limit`), and a JSON:API 400 for a body nested deeper than {@link BODY_MAX_DEPTH} levels.
 * The pipeline runs it after the session check, so that nobody reads or buffers a body for a
 * caller who is not authenticated (the login route runs its own, with a small limit). The reader
 * is body-parser's JSON parser, as express exports it (loaded with express on the first body);
 * it works on node's objects.
 */
export function bodyStep(limit = DEFAULT_BODY_LIMIT): BodyStep {
  let parser: Promise<JsonParser> | null = null;
  return async (request, response) => {
    parser ??= loadExpress().then(
      (express) =>
        express.json({
          limit,
          strict: true,
          type: ['application/json', 'application/*+json'],
        }) as unknown as JsonParser,
    );
    const parse = await parser;
    return new Promise((resolve, reject) => {
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
  };
}
