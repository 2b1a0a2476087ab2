/**
 * Which query objects (condition trees, sorts, records to write) have been validated, so that
 * the layers under the point where a request enters trust them instead of walking them again:
 * the toolkit validates a tree once where a request enters (request parsing, or the top of the
 * customizer's stack for code calling a collection), and lower layers and data sources skip what
 * is marked. A tree derived only from validated trees (`intersect`, `union`, a layer translating
 * names) is validated too; anything else is validated by the next layer that needs it.
 *
 * The object carries its mark: a hidden property (a symbol of this module, not enumerable, so a
 * copy made with a spread or `Object.assign` is not marked, and JSON never shows it). A marked
 * object (trees are immutable; sorts and records are arrays and objects) must not be changed
 * afterwards. An object that cannot take a property (frozen before it was validated) stays
 * unmarked and is validated again where needed.
 *
 * Marks belong to an epoch: a customization that changes a schema starts a new one
 * ({@link forgetValidated}), so that a tree validated against the old schema is checked again.
 */
const VALIDATED_IN = Symbol('validated in epoch');

type Markable = { [VALIDATED_IN]?: number };

let epoch = 0;

/**
 * Records that `value` is valid for the collection it is handed to; returns it.
 *
 * @example
 * validateConditionTree(collection, tree); // marks `tree`
 * isValidated(tree); // true
 */
export function markValidated<T extends object | null>(value: T): T {
  if (value === null) return value;
  // `Reflect` answers false instead of throwing for an object that cannot take the mark.
  if (Object.prototype.hasOwnProperty.call(value, VALIDATED_IN)) {
    Reflect.set(value, VALIDATED_IN, epoch);
  } else {
    Reflect.defineProperty(value, VALIDATED_IN, { value: epoch, writable: true });
  }
  return value;
}

/** Whether `value` was validated in the current epoch (`null`, matching everything, always is). */
export function isValidated(value: object | null | undefined): boolean {
  return value === null || value === undefined || (value as Markable)[VALIDATED_IN] === epoch;
}

/** Marks `derived` as validated when `source` is (a faithful translation of it); returns it. */
export function carryValidated<T extends object | null>(source: object | null, derived: T): T {
  if (derived !== source && derived !== null && isValidated(source)) markValidated(derived);
  return derived;
}

/** Forgets every mark (a schema changed): objects are validated again when next used. */
export function forgetValidated(): void {
  epoch += 1;
}
