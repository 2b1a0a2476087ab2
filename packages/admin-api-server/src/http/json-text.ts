import type { Request, Response } from 'express';
import etag from 'etag';

/**
 * Answers a JSON text as `res.send` would — `Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, express's default weak ETag of the body's UTF-8 bytes, `304` for a fresh
 * conditional request, no body for `HEAD` — while keeping the text a string.
 *
 * `res.send` turns any body of 1,000 characters or more into a Buffer when ETags are on (to hash
 * it): node then writes the headers and the body as two chunks and the copy is garbage to collect.
 * A string body goes out with its headers in one write. The public API's list answers are tens
 * of kilobytes and the busiest answers the server sends, so they go through here.
 */
export function sendJsonText(req: Request, res: Response, text: string): void {
  // The etag package hashes a string as its UTF-8 bytes, exactly what express hashes after its
  // copy, and starts a weak tag with the byte length in hexadecimal: `W/"<length>-<hash>"`.
  const tag = etag(text, { weak: true });
  res.setHeader('ETag', tag);
  // Only a request with a validator (`If-None-Match`, `If-Modified-Since`) is a conditional one,
  // which can get a 304: express's `req.fresh` decides it. The API clients' reads, the busiest
  // requests, send none, and skip the header lookups it makes on the response.
  const headers = req.headers;
  const conditional =
    headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
  if (conditional && req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(parseInt(tag.slice(3, tag.indexOf('-')), 16)));
  if (req.method === 'HEAD') res.end();
  else res.end(text, 'utf8');
}
