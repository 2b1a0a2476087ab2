import express, { type ErrorRequestHandler, type RequestHandler } from 'express';

/** Default body size limit of agent-http-protocol §1.2. */
export const DEFAULT_BODY_LIMIT = '50mb';

/**
 * JSON body parsing (§1.2) for every method that may carry a body, DELETE included. Bodies that
 * are not JSON objects or arrays are refused like unparsable ones.
 */
export function jsonBody(limit: string = DEFAULT_BODY_LIMIT): RequestHandler {
  return express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
}

/**
 * Answers body-parser failures before the JSON:API error layer, as §1.2 and §14.4 say: plain
 * text `Bad Request` (400) or `Payload Too Large` (413). Installed right after {@link jsonBody}, so
 * every error carrying a body-parser `type` comes from it.
 */
export function bodyErrors(): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    const type = (error as { type?: unknown } | null)?.type;
    if (type === 'entity.too.large') {
      response.status(413).type('text/plain').send('Payload Too Large');
      return;
    }
    if (typeof type === 'string') {
      response.status(400).type('text/plain').send('Bad Request');
      return;
    }
    next(error);
  };
}
