import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * Sends a JSON answer (`application/json; charset=utf-8`, §1.3) in one write, without the ETag
 * hashing of express's `res.json`: data answers are not cacheable, and hashing every body was a
 * measurable part of the per-request cost. The body goes as text: node joins it to the headers'
 * text and writes the answer in one call (through a stack buffer under 16 KB), where a `Buffer` of
 * the body was an allocation outside V8's heap per answer, freed only by a later collection.
 */
export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  sendJsonText(response, JSON.stringify(body), status);
}

/**
 * {@link sendJson} of a body already written as JSON text (the JSON:API documents). Node sets the
 * `Content-Length` of an answer sent whole by `end`, from the one byte count it takes anyway.
 */
export function sendJsonText(response: ServerResponse, text: string, status = 200): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(text);
}

/** A plain-text answer with the headers express's `res.send` gave one (its weak ETag included). */
export function sendPlainText(response: ServerResponse, status: number, text: string): void {
  const length = Buffer.byteLength(text);
  const hash = createHash('sha1').update(text, 'utf8').digest('base64').slice(0, 27);
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.setHeader('Content-Length', length);
  response.setHeader('ETag', `W/"${length.toString(16)}-${hash}"`);
  response.end(text);
}

/** An empty answer (`204 No Content` by default). */
export function sendEmpty(response: ServerResponse, status = 204): void {
  response.statusCode = status;
  response.end();
}
