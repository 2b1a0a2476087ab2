/** A JSON object value. */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a plain JSON object (not an array, a date or a buffer). */
export function isJsonObject(value: unknown): value is JsonObject {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}

/** The value at a path of a JSON value; `null` when a key is missing on the way. */
export function valueAtPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current) || !Object.hasOwn(current, key)) return null;
    current = current[key];
  }
  return current === undefined ? null : current;
}

/** Sets `value` at `path` in `target`, creating (or replacing non-object) parents. */
export function setAtPath(target: JsonObject, path: readonly string[], value: unknown): void {
  const parents = path.slice(0, -1);
  const last = path[path.length - 1] as string;
  let current = target;
  for (const key of parents) {
    const next = current[key];
    if (!isJsonObject(next)) current[key] = {};
    current = current[key] as JsonObject;
  }
  current[last] = value;
}

/**
 * A copy of `base` with `patch` merged in: objects are merged key by key, everything else in
 * `patch` (scalars, arrays, `null`) replaces what `base` holds. `base` is left untouched.
 */
export function deepMerge(base: unknown, patch: JsonObject): JsonObject {
  const merged: JsonObject = isJsonObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = isJsonObject(value) ? deepMerge(merged[key], value) : value;
  }
  return merged;
}

/** A serialization of a JSON value that ignores key order, to group equal values. */
export function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableKey(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
