import type { Request } from 'express';

/** A query string read flat: bracketed keys are literal names, repeated keys comma-joined. */
export type FlatQuery = Readonly<Record<string, string>>;

const CACHE = Symbol('canopyFlatQuery');

/**
 * Reads the query string as agent-http-protocol §1.2 and quirk 17 say: `fields[orders]` and
 * `page[size]` are literal keys (whatever query parser the host application installed), and a
 * repeated key gives its values joined with commas.
 */
export function readQuery(request: Request): FlatQuery {
  const cached = (request as Request & { [CACHE]?: FlatQuery })[CACHE];
  if (cached) return cached;
  const url = request.originalUrl ?? request.url;
  const index = url.indexOf('?');
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  if (index >= 0) {
    for (const [key, value] of new URLSearchParams(url.slice(index + 1))) {
      query[key] = key in query ? `${query[key]},${value}` : value;
    }
  }
  (request as Request & { [CACHE]?: FlatQuery })[CACHE] = query;
  return query;
}
