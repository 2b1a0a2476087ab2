/** A query string read flat: bracketed keys are literal names, repeated keys comma-joined. */
export type FlatQuery = Readonly<Record<string, string>>;

/** Where a query string is read from: a request's URL (express sets `originalUrl`, node `url`). */
export interface QueryStringSource {
  readonly originalUrl?: string;
  readonly url?: string;
}

const CACHE = Symbol('canopyFlatQuery');

/**
 * A parsed query: an object whose prototype is an empty object without a prototype, so that no
 * key (`__proto__`, `constructor`) reaches `Object.prototype`, while V8 keeps it a fast object
 * (`Object.create(null)` makes a dictionary, ~3x slower to build and read).
 */
function QueryObject(this: Record<string, string>): void {}
QueryObject.prototype = Object.create(null) as object;
const newQuery = (): Record<string, string> =>
  new (QueryObject as unknown as new () => Record<string, string>)();

/**
 * Reads the query string as agent-http-protocol §1.2 and quirk 17 say: `fields[orders]` and
 * `page[size]` are literal keys (whatever query parser the host application installed), and a
 * repeated key gives its values joined with commas.
 */
export function readQuery(request: QueryStringSource): FlatQuery {
  const cached = (request as QueryStringSource & { [CACHE]?: FlatQuery })[CACHE];
  if (cached) return cached;
  const url = request.originalUrl ?? request.url ?? '';
  const index = url.indexOf('?');
  const query = index < 0 ? newQuery() : parseQuery(url.slice(index + 1));
  (request as QueryStringSource & { [CACHE]?: FlatQuery })[CACHE] = query;
  return query;
}

/**
 * Parses `application/x-www-form-urlencoded` text as `URLSearchParams` does, without building
 * one: split on `&` and the first `=`, `+` as a space, percent-decoding. Text that
 * `decodeURIComponent` refuses (a stray `%`, invalid UTF-8), which `URLSearchParams` reads
 * leniently, is handed to `URLSearchParams` as a whole.
 */
function parseQuery(search: string): Record<string, string> {
  // URLSearchParams drops one leading `?` (`/x??a=1` reads `a`).
  const text = search.charCodeAt(0) === 0x3f ? search.slice(1) : search;
  const query = newQuery();
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const equals = text.indexOf('=', start);
      const split = equals >= 0 && equals < end;
      const key = decodeComponent(text.slice(start, split ? equals : end));
      const value = split ? decodeComponent(text.slice(equals + 1, end)) : '';
      if (key === null || value === null) return parseLeniently(search);
      query[key] = key in query ? `${query[key]},${value}` : value;
    }
    start = end + 1;
  }
  return query;
}

function decodeComponent(text: string): string | null {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

function parseLeniently(text: string): Record<string, string> {
  const query = newQuery();
  for (const [key, value] of new URLSearchParams(text)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }
  return query;
}
