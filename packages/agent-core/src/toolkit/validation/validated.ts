/**
 * Which query objects (condition trees, sorts, records to write) have been validated, so that
 * the layers under the point where a request enters trust them instead of walking them again:
 * the toolkit validates a tree once where a request enters (request parsing, or the top of the
 * customizer's stack for code calling a collection), and lower layers and data sources skip what
 * is marked. A tree derived only from validated trees (`intersect`, `union`, a layer translating
 * names) is validated too; anything else is validated by the next layer that needs it. Marks go
 * by identity: a marked object (trees are immutable; sorts and records are arrays and objects)
 * must not be changed afterwards.
 *
 * Marks belong to an epoch: a customization that changes a schema starts a new one
 * ({@link forgetValidated}), so that a tree validated against the old schema is checked again.
 * The registry lives on `globalThis`, so that a data source bundled with its own copy of this
 * package sees the marks of the agent's copy (otherwise it would only validate again).
 */
interface Registry {
  epoch: number;
  marks: WeakMap<object, number>;
}

const KEY = Symbol.for('@canopy/agent-core/validated');
const holder = globalThis as { [KEY]?: Registry };
const registry: Registry = (holder[KEY] ??= { epoch: 0, marks: new WeakMap() });

/**
 * Records that `value` is valid for the collection it is handed to; returns it.
 *
 * @example
 * validateConditionTree(collection, tree); // marks `tree`
 * isValidated(tree); // true
 */
export function markValidated<T extends object | null>(value: T): T {
  if (value !== null) registry.marks.set(value, registry.epoch);
  return value;
}

/** Whether `value` was validated in the current epoch (`null`, matching everything, always is). */
export function isValidated(value: object | null | undefined): boolean {
  return value === null || value === undefined || registry.marks.get(value) === registry.epoch;
}

/** Marks `derived` as validated when `source` is (a faithful translation of it); returns it. */
export function carryValidated<T extends object | null>(source: object | null, derived: T): T {
  if (derived !== source && derived !== null && isValidated(source)) markValidated(derived);
  return derived;
}

/** Forgets every mark (a schema changed): objects are validated again when next used. */
export function forgetValidated(): void {
  registry.epoch += 1;
}
