/**
 * The separator joining path segments in the names of generated fields
 * (`address@@@geo@@@lat`). Chosen because `:` is reserved for relation paths and `.` is common
 * in JSON keys.
 */
export const FLATTEN_SEPARATOR = '@@@';

/** The name of the field generated for `path` under `prefix` (`address`, `['geo', 'lat']`). */
export function flattenedName(prefix: string, path: readonly string[]): string {
  return [prefix, ...path].join(FLATTEN_SEPARATOR);
}

/** Splits a user-written path (`geo.lat`, `geo:lat`) into its segments. */
export function splitUserPath(path: string): string[] {
  return path.split(/[.:]/);
}
