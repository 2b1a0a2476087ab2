import type {
  ColumnSchema,
  CollectionCustomizer,
  CompositeColumnType,
  FieldSchema,
} from '@canopy/agent-core';
import {
  type NestedType,
  findTypeProblem,
  isComposite,
  pathsToLevel,
  typeAtPath,
} from '../composite-type';
import { FlattenerError } from '../flattener-error';
import { optionalBoolean, optionsObject, stringList } from '../option-checks';
import { flattenedName, splitUserPath } from '../separator';

/**
 * Options of {@link flattenColumn} (spec §4.5).
 *
 * @example
 * customers.use(flattenColumn, { columnName: 'address', level: 2, exclude: ['geo.lng'] });
 */
export interface FlattenColumnOptions {
  /** The object column to flatten. */
  columnName: string;
  /**
   * Paths to flatten, relative to the column, with `.` or `:` between keys (`'geo.lat'`).
   * When non-empty, `level` is ignored. Default: every path down to `level`.
   */
  include?: string[];
  /** Paths not to flatten (exact matches: excluding `geo` keeps `geo.lat`). */
  exclude?: string[];
  /** How many keys deep to flatten when `include` is empty (default 1). */
  level?: number;
  /** Expose the generated fields read-only even when the column is writable. */
  readonly?: boolean;
  /** The column's object type, used instead of the schema's (required for `Json` columns). */
  columnType?: CompositeColumnType;
  /**
   * Native columns holding the value of a flattened path (`{ 'geo.lat': 'geo_lat' }`), e.g.
   * PostgreSQL generated columns over a jsonb path. The generated field then filters and sorts
   * through the native column (in the database) with every operator it supports; the native
   * column is hidden from the exposed schema.
   */
  nativeFields?: Record<string, string>;
}

/** One flattened path and the field generated for it. */
export interface FlattenedPath {
  path: string[];
  fieldName: string;
  type: NestedType;
}

/** What {@link flattenColumn} does, once its options are checked against the schema. */
export interface ColumnFlattening {
  columnName: string;
  paths: FlattenedPath[];
  writable: boolean;
  /** Path (joined with `.`) → native column name. */
  nativeFields: Map<string, string>;
}

function describeField(field: FieldSchema): string {
  return field.type === 'Column' ? 'column' : `${field.type} relation`;
}

/** The column schema, or a clear error naming the collection and what exists. */
function findColumn(collection: CollectionCustomizer, columnName: string): ColumnSchema {
  const fields = collection.schema.fields;
  const field = fields[columnName];
  if (!field || field.type !== 'Column') {
    const columns = Object.entries(fields)
      .filter(([, candidate]) => candidate.type === 'Column')
      .map(([name]) => `'${name}'`)
      .sort();
    const found = field ? `it is a ${describeField(field)}, not a column` : 'no such column';
    throw new FlattenerError(
      'FLATTENER_UNKNOWN_FIELD',
      `'${collection.name}.${columnName}' cannot be flattened (${found}). Columns of '${collection.name}' are: [${columns.join(', ')}].`,
    );
  }
  return field;
}

/** The object type to flatten: the option's, else the column's (primitives and arrays refused). */
function objectType(label: string, column: ColumnSchema, given: unknown): CompositeColumnType {
  if (Array.isArray(column.columnType)) {
    throw new FlattenerError(
      'FLATTENER_UNSUPPORTED_TYPE',
      `'${label}' cannot be flattened (array not supported).`,
    );
  }
  if (given !== undefined) {
    const problem = isComposite(given as NestedType)
      ? findTypeProblem(given)
      : `it must be an object of key → type, got ${JSON.stringify(given)}`;
    if (problem || Object.keys(given as object).length === 0) {
      throw new FlattenerError(
        'FLATTENER_INVALID_OPTION',
        `'${label}' cannot be flattened: options.columnType is invalid (${problem ?? 'it has no key'}). Example: { city: 'String', geo: { lat: 'Number' } }.`,
      );
    }
    if (typeof column.columnType === 'string' && column.columnType !== 'Json') {
      throw new FlattenerError(
        'FLATTENER_UNSUPPORTED_TYPE',
        `'${label}' cannot be flattened (primitive type '${column.columnType}' cannot hold objects; options.columnType only applies to object and Json columns).`,
      );
    }
    return given as CompositeColumnType;
  }
  if (column.columnType === 'Json') {
    throw new FlattenerError(
      'FLATTENER_UNSUPPORTED_TYPE',
      `'${label}' cannot be flattened using flattenColumn please use flattenJsonColumn (a Json column needs the shape of its values).`,
    );
  }
  if (typeof column.columnType === 'string') {
    throw new FlattenerError(
      'FLATTENER_UNSUPPORTED_TYPE',
      `'${label}' cannot be flattened (primitive type '${column.columnType}' not supported).`,
    );
  }
  return column.columnType as CompositeColumnType;
}

function checkLevel(label: string, level: unknown): number {
  if (level === undefined || level === null) return 1;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < 1) {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `'${label}' cannot be flattened: options.level must be greater than 0 (a whole number of key levels), got ${JSON.stringify(level)}.`,
    );
  }
  return level;
}

/** The paths to flatten: `include` (checked against the type) or every path down to `level`. */
function selectPaths(
  label: string,
  columnName: string,
  type: CompositeColumnType,
  include: string[],
  exclude: string[],
  level: number,
): string[][] {
  const known = (path: string[]) =>
    path.every((key) => key !== '') && typeAtPath(type, path) !== undefined;
  for (const [option, list] of [
    ['include', include],
    ['exclude', exclude],
  ] as const) {
    const unknown = list.map(splitUserPath).find((path) => !known(path));
    if (unknown) {
      const verb = option === 'include' ? 'add' : 'exclude';
      const every = pathsToLevel(type, Infinity).map((path) => `'${path.join('.')}'`);
      throw new FlattenerError(
        'FLATTENER_UNKNOWN_PATH',
        `'${label}' cannot be flattened: cannot ${verb} field '${flattenedName(columnName, unknown)}' ` +
          `(dependency not found: options.${option} names '${unknown.join('.')}', which is not ` +
          `a path of the column type; paths are: ${every.join(', ')}).`,
      );
    }
  }
  const paths = include.length > 0 ? include.map(splitUserPath) : pathsToLevel(type, level);
  const excluded = new Set(exclude.map((path) => splitUserPath(path).join('.')));
  const unique = new Map(paths.map((path) => [path.join('.'), path]));
  const kept = [...unique.values()].filter((path) => !excluded.has(path.join('.')));
  if (kept.length === 0) {
    throw new FlattenerError(
      'FLATTENER_NOTHING_TO_FLATTEN',
      `'${label}' cannot be flattened (no fields match level/include/exclude).`,
    );
  }
  return kept;
}

/** Checks flattenColumn's options against the collection schema (while customizations apply). */
export function resolveColumnFlattening(
  collection: CollectionCustomizer,
  rawOptions: unknown,
): ColumnFlattening {
  const options = optionsObject(`flattenColumn on '${collection.name}'`, rawOptions);
  const { columnName } = options;
  if (typeof columnName !== 'string' || columnName === '') {
    throw new FlattenerError(
      'FLATTENER_MISSING_OPTION',
      `flattenColumn on '${collection.name}': options.columnName is required (the name of an object column of '${collection.name}').`,
    );
  }
  const label = `${collection.name}.${columnName}`;
  const column = findColumn(collection, columnName);
  const type = objectType(label, column, options.columnType);
  const level = checkLevel(label, options.level);
  const include = stringList(`'${label}'`, 'include', options.include);
  const exclude = stringList(`'${label}'`, 'exclude', options.exclude);
  const readonly = optionalBoolean(`'${label}'`, 'readonly', options.readonly);
  const paths = selectPaths(label, columnName, type, include, exclude, level).map((path) => ({
    path,
    fieldName: flattenedName(columnName, path),
    type: typeAtPath(type, path) as NestedType,
  }));
  return {
    columnName,
    paths,
    writable: !readonly && !column.isReadOnly,
    nativeFields: nativeFieldMap(label, options.nativeFields),
  };
}

function nativeFieldMap(label: string, value: unknown): Map<string, string> {
  if (value === undefined || value === null) return new Map();
  const entries = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  if (entries.length === 0 || entries.some(([, name]) => typeof name !== 'string' || !name)) {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `'${label}' cannot be flattened: options.nativeFields must map paths to native column names, like { 'geo.lat': 'geo_lat' }, got ${JSON.stringify(value)}.`,
    );
  }
  return new Map(entries.map(([path, name]) => [splitUserPath(path).join('.'), name as string]));
}
