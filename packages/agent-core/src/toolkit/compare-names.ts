/**
 * Orders names as `a.localeCompare(b)` does, the order the schema file lists collections,
 * fields, actions and segments in (platform-protocol §13: `a, b, B, ba`), without loading ICU's
 * collation data for the common case: the first `localeCompare` of a process pages in ~12 MB.
 *
 * Names made of ASCII letters, digits and `_` are compared here, as ICU's root collation orders
 * them: first ignoring case, `_` before digits before letters, a prefix before what extends it;
 * then, on a tie, lowercase before uppercase at the first difference. That is also the order of
 * the default locale whenever its language collates ASCII as the root does (checked for the
 * ones listed below, from the variables ICU reads: `LC_ALL`, `LC_MESSAGES`, `LANG`); any other
 * name, or another locale (Danish reads `aa` as `å`), goes to `localeCompare`.
 */
export function compareNames(a: string, b: string): number {
  if (rootOrder === undefined) rootOrder = collatesAsciiAsRoot(process.env);
  if (!rootOrder || !ASCII_NAME.test(a) || !ASCII_NAME.test(b)) return a.localeCompare(b);
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const difference = primary(a.charCodeAt(index)) - primary(b.charCodeAt(index));
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let index = 0; index < length; index += 1) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    // Same letter, other case: lowercase (the higher code) first.
    if (x !== y) return x > y ? -1 : 1;
  }
  return 0;
}

const ASCII_NAME = /^[A-Za-z0-9_]*$/;

/** Languages whose collation orders ASCII letters, digits and `_` as the root collation does. */
const ROOT_ORDER_LANGUAGES = new Set(['', 'c', 'posix', 'en', 'fr', 'de', 'es', 'it', 'pt', 'nl']);

let rootOrder: boolean | undefined;

/**
 * Whether the process's default locale, as ICU reads it from the environment, collates ASCII
 * names as the root collation does. Exported for tests.
 */
export function collatesAsciiAsRoot(env: NodeJS.ProcessEnv): boolean {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  const language = /^[A-Za-z]*/.exec(locale)?.[0].toLowerCase() ?? '';
  return ROOT_ORDER_LANGUAGES.has(language);
}

function primary(code: number): number {
  if (code === 0x5f /* _ */) return 0;
  if (code <= 0x39 /* 9 */) return code; // digits: 0x30–0x39
  return code >= 0x61 /* a */ ? code - 0x20 : code; // letters, case-insensitive: 0x41–0x5a
}
