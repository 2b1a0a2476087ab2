import pg from 'pg';

/** PostgreSQL's type oid of `text[]`. */
export const TEXT_ARRAY_OID = 1009;

/** A one-dimensional array whose elements PostgreSQL wrote unquoted and JSON writes unescaped. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const PLAIN_ARRAY = /^\{[^"\\{}\u0000-\u001f]*\}$/;
/** An unquoted `NULL` element (a string "NULL" is written quoted). */
const NULL_ELEMENT = /(?:^|,)NULL(?:,|$)/i;

// pg's typings list only the scalar types' oids.
const defaultTextArrayParser = (
  pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown
)(TEXT_ARRAY_OID, 'text');

/**
 * `JSON.stringify` of the strings of a `text[]` PostgreSQL gives as `text` (its text form),
 * without building the array when it can: a one-dimensional array of elements PostgreSQL did not
 * quote (no comma, brace, quote, backslash, white space or empty element: PostgreSQL quotes those)
 * and JSON does not escape (no control character) is rewritten directly; any other form (quoted
 * elements, NULLs, several dimensions, explicit bounds) goes through pg's own parser, as before.
 */
export function textArrayToJson(text: string): string {
  if (PLAIN_ARRAY.test(text) && !NULL_ELEMENT.test(text.slice(1, -1))) {
    return text.length === 2 ? '[]' : `["${text.slice(1, -1).replaceAll(',', '","')}"]`;
  }
  return JSON.stringify(defaultTextArrayParser(text));
}
