import express, { type RequestHandler } from 'express';
import { ApiError } from '../errors';

/** How deep arrays and objects of a JSON body may nest; deeper bodies are refused unparsed. */
export const MAX_JSON_DEPTH = 64;
/** Size limit of public API bodies (agent schema uploads and log batches take more). */
export const PUBLIC_BODY_LIMIT = '1mb';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);
const NUL_ESCAPE = Buffer.from('u0000');

/**
 * Checks a JSON body before it is parsed: nesting no deeper than {@link MAX_JSON_DEPTH} and, unless
 * `allowNul` (a route that checks its values one by one), no `\u0000` in a string (PostgreSQL text
 * cannot hold one). One pass over the bytes, no recursion.
 */
export function checkJsonText(body: Buffer, { allowNul = false } = {}): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i]!;
    if (inString) {
      if (byte === BACKSLASH) {
        if (!allowNul && body[i + 1] === 0x75 && body.subarray(i + 1, i + 6).equals(NUL_ESCAPE)) {
          throw new ApiError(
            400,
            'invalid_body',
            'Strings of the request body must not hold NUL characters (\\u0000).',
          );
        }
        i += 1;
      } else if (byte === QUOTE) {
        inString = false;
      }
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) {
        throw new ApiError(
          400,
          'invalid_body',
          `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
        );
      }
    } else if (CLOSERS.has(byte)) {
      depth -= 1;
    }
  }
}

/** `%00`, or a raw NUL character, in URL-encoded text. */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000') || /%00/.test(text);
}

function checkFormText(body: Buffer): void {
  if (holdsNul(body.toString('latin1'))) {
    throw new ApiError(
      400,
      'invalid_body',
      'Fields of the request body must not hold NUL characters.',
    );
  }
}

/**
 * The one JSON body reader: `limit` bytes at most, the depth and NUL checks of
 * {@link checkJsonText}, `Content-Encoding` identity, gzip, deflate or br (anything else is a 415).
 * Routes place it after their authentication, so no body is read for an unknown caller.
 */
export function jsonBody(
  limit: string = PUBLIC_BODY_LIMIT,
  options: { allowNul?: boolean } = {},
): RequestHandler {
  return express.json({ limit, verify: (_req, _res, body) => checkJsonText(body, options) });
}

/** The one form body reader (login forms): 100 kB at most, no NUL in a field. */
export function formBody(): RequestHandler {
  return express.urlencoded({
    extended: false,
    limit: '100kb',
    verify: (_req, _res, body) => checkFormText(body),
  });
}

/** Refuses a path or query string holding a NUL character (`%00`) before any route reads it. */
export function rejectNulInUrl(): RequestHandler {
  return (req, _res, next) => {
    if (holdsNul(req.originalUrl)) {
      throw new ApiError(
        400,
        'invalid_parameter',
        'The path and the query string must not hold NUL characters (%00).',
      );
    }
    next();
  };
}

/** One middleware of `authenticate` then `read` (a body reader): no body is read for a refused caller. */
export function authenticatedBody(
  authenticate: RequestHandler,
  read: RequestHandler = jsonBody(),
): RequestHandler {
  return (req, res, next) => {
    const readNext = (error?: unknown) => (error ? next(error) : read(req, res, next));
    Promise.resolve(authenticate(req, res, readNext)).catch(next);
  };
}
