/**
 * The primitive column types of the data model.
 *
 * `Date` is an instant with time (wire format: UTC ISO-8601), `Dateonly` a calendar date
 * (`YYYY-MM-DD`), `Time` a time of day (`HH:MM:SS`). `Binary` holds bytes (a `Buffer` in data
 * sources, a string at the top of the customizer stack). `File` is a data-URI string.
 */
export const PRIMITIVE_TYPES = [
  'Binary',
  'Boolean',
  'Date',
  'Dateonly',
  'Enum',
  'File',
  'Json',
  'Number',
  'Point',
  'String',
  'Time',
  'Uuid',
] as const;

/** One of {@link PRIMITIVE_TYPES}. */
export type PrimitiveType = (typeof PRIMITIVE_TYPES)[number];

/** An enum nested in a composite column type: `{ type: 'Enum', enumValues: ['home', 'work'] }`. */
export interface NestedEnumType {
  type: 'Enum';
  enumValues: string[];
}

/** A composite (object) column type: key → column type. */
export interface CompositeColumnType {
  [key: string]: ColumnType | NestedEnumType;
}

/**
 * A column type: a primitive, an array of one column type (`['String']`), or a composite object.
 *
 * @example
 * const address: ColumnType = { street: 'String', zip: 'Number' };
 * const tags: ColumnType = ['String'];
 */
export type ColumnType = PrimitiveType | [ColumnType] | CompositeColumnType;

/** Whether a value is one of the primitive column type names. */
export function isPrimitiveType(type: unknown): type is PrimitiveType {
  return typeof type === 'string' && (PRIMITIVE_TYPES as readonly string[]).includes(type);
}

/** Whether a column type is an array type such as `['String']`. */
export function isArrayType(type: ColumnType): type is [ColumnType] {
  return Array.isArray(type);
}

/** Renders a column type for error messages (`String`, `[Number]`, `{ zip: Number }`). */
export function describeColumnType(type: ColumnType | NestedEnumType): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return `[${describeColumnType(type[0])}]`;
  if (isNestedEnum(type)) return 'Enum';
  const entries = Object.entries(type).map(([key, sub]) => `${key}: ${describeColumnType(sub)}`);
  return `{ ${entries.join(', ')} }`;
}

/** Whether a composite entry is a nested enum descriptor. */
export function isNestedEnum(type: ColumnType | NestedEnumType): type is NestedEnumType {
  return (
    typeof type === 'object' &&
    !Array.isArray(type) &&
    type.type === 'Enum' &&
    Array.isArray((type as NestedEnumType).enumValues)
  );
}
