import { ValidationError } from '../errors/canopy-error';

/** Limits of a JSON document: nesting depth and number of objects and arrays. */
export interface JsonBounds {
  /** Deepest nesting of objects and arrays (the root object is level 1). */
  maxDepth: number;
  /** Most objects and arrays, all levels together. */
  maxContainers?: number;
}

/**
 * Checks the nesting depth and size of a parsed JSON value without recursion, so that a hostile
 * document (thousands of nested levels) is refused with a 400 that names the limit before any
 * recursive code (casts, validators, tree walkers, `JSON.stringify`) sees it. `what` names the
 * document in the message.
 *
 * @example
 * assertJsonBounds(JSON.parse(text), { maxDepth: 32 }, 'filters');
 * // ValidationError: filters is nested deeper than 32 levels of objects and arrays
 */
export function assertJsonBounds(value: unknown, bounds: JsonBounds, what: string): void {
  if (typeof value !== 'object' || value === null) return;
  const pending: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  let containers = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    containers += 1;
    if (next.depth > bounds.maxDepth) {
      throw new ValidationError(
        `${what} is nested deeper than ${bounds.maxDepth} levels of objects and arrays`,
      );
    }
    if (bounds.maxContainers !== undefined && containers > bounds.maxContainers) {
      throw new ValidationError(
        `${what} is too large: more than ${bounds.maxContainers} objects and arrays`,
      );
    }
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (typeof child === 'object' && child !== null && !(child instanceof Date)) {
        pending.push({ value: child as object, depth: next.depth + 1 });
      }
    }
  }
}
