import type { ServerResponse } from 'node:http';

/**
 * Sends a JSON answer (`application/json; charset=utf-8`, §1.3) in one write, without the ETag
 * hashing of express's `res.json`: data answers are not cacheable, and hashing every body was a
 * measurable part of the per-request cost.
 */
export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
