import {
  type ColumnType,
  type CompositeColumnType,
  type NestedEnumType,
  isNestedEnum,
  isPrimitiveType,
} from '@canopy/agent-core';

/** What a key of a composite type may map to. */
export type NestedType = ColumnType | NestedEnumType;

/** Whether a nested type is a composite object (not an array, not an enum descriptor). */
export function isComposite(type: NestedType | undefined): type is CompositeColumnType {
  return typeof type === 'object' && type !== null && !Array.isArray(type) && !isNestedEnum(type);
}

/**
 * The first problem of a user-given nested type, as `'<path>' <problem>`, or `null` when every
 * key maps to a primitive type name, an array of one type, an enum descriptor or an object.
 */
export function findTypeProblem(type: unknown, path: readonly string[] = []): string | null {
  const where = path.length > 0 ? `'${path.join('.')}'` : 'the type';
  if (typeof type === 'string') {
    return isPrimitiveType(type) ? null : `${where} has unknown type '${type}'`;
  }
  if (Array.isArray(type)) {
    return type.length === 1
      ? findTypeProblem(type[0], path)
      : `${where} must be an array of exactly one type, like ['String']`;
  }
  if (typeof type !== 'object' || type === null) {
    return `${where} must be a type name, an array of one type or an object, got ${JSON.stringify(type)}`;
  }
  if (isNestedEnum(type as NestedType)) {
    const values = (type as NestedEnumType).enumValues;
    return values.every((value) => typeof value === 'string')
      ? null
      : `${where} must list string enumValues`;
  }
  for (const [key, sub] of Object.entries(type)) {
    const problem = findTypeProblem(sub, [...path, key]);
    if (problem) return problem;
  }
  return null;
}

/** The type at a path of a composite type, or `undefined` when the path leaves the type. */
export function typeAtPath(type: NestedType, path: readonly string[]): NestedType | undefined {
  let current: NestedType | undefined = type;
  for (const key of path) {
    if (!isComposite(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Every path down to `level` keys deep: objects within reach are opened, objects deeper than
 * `level` stay one object-typed path; arrays and enum descriptors are leaves.
 */
export function pathsToLevel(type: CompositeColumnType, level: number): string[][] {
  return Object.entries(type).flatMap(([key, sub]) =>
    level > 1 && isComposite(sub) && Object.keys(sub).length > 0
      ? pathsToLevel(sub, level - 1).map((path) => [key, ...path])
      : [[key]],
  );
}

/** How many object levels a composite type has (`{ a: 'String' }` → 1). */
export function depthOf(type: CompositeColumnType): number {
  return Object.values(type).reduce<number>(
    (depth, sub) => Math.max(depth, isComposite(sub) ? 1 + depthOf(sub) : 1),
    0,
  );
}
