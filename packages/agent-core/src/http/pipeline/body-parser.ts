import express, { type ErrorRequestHandler, type RequestHandler, type Response } from 'express';

/** Default body size limit of agent-http-protocol §1.2. */
export const DEFAULT_BODY_LIMIT = '50mb';

/** The methods whose bodies are parsed (§1.2): a `DELETE` may carry a selection body. */
export const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * JSON body parsing (§1.2) for every method that may carry a body, DELETE included; other methods
 * (GET, HEAD, OPTIONS) pass without reading it. Bodies that are not JSON objects or arrays are
 * refused like unparsable ones.
 */
export function jsonBody(limit: string = DEFAULT_BODY_LIMIT): RequestHandler {
  const parse = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  return (request, response, next) => {
    if (METHODS_WITH_BODY.has(request.method)) parse(request, response, next);
    else next();
  };
}

/**
 * Answers a body-parser failure as §1.2 and §14.4 say: plain text `Bad Request` (400) or
 * `Payload Too Large` (413). Returns `false` for any other error (not answered).
 */
export function answerBodyError(error: unknown, response: Response): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return false;
  if (type === 'entity.too.large') {
    response.status(413).type('text/plain').send('Payload Too Large');
  } else {
    response.status(400).type('text/plain').send('Bad Request');
  }
  return true;
}

/**
 * Answers body-parser failures before the JSON:API error layer, as §1.2 and §14.4 say: plain
 * text `Bad Request` (400) or `Payload Too Large` (413). Installed right after {@link jsonBody}, so
 * every error carrying a body-parser `type` comes from it.
 */
export function bodyErrors(): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (!answerBodyError(error, response)) next(error);
  };
}
