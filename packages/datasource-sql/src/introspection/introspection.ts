import type { SqlDialect } from '../connection/sql-connection-params';

/** Identifies introspections produced by this package. */
export const INTROSPECTION_SOURCE = '@canopy/datasource-sql';
/** Version of the serialized introspection format this package writes and reads. */
export const INTROSPECTION_VERSION = 1;

/**
 * The type of a column, decided once at introspection:
 * - `integer`, `bigint`, `decimal`, `float` → Number (`bigint`/`decimal` may be read as strings
 *   when a double would lose digits);
 * - `timestamp` → Date (`withTimeZone` false means the stored value is read as UTC);
 * - `interval`, `timetz` and `network` (inet, cidr, macaddr) → String with the operators their
 *   SQL type supports without casts; `point` → Point (`"x,y"`).
 */
export type ScalarKind =
  | 'boolean'
  | 'string'
  | 'integer'
  | 'bigint'
  | 'decimal'
  | 'float'
  | 'timestamp'
  | 'date'
  | 'time'
  | 'timetz'
  | 'interval'
  | 'uuid'
  | 'json'
  | 'binary'
  | 'network'
  | 'point';

/** A column type as read from the catalog. */
export type IntrospectedType =
  | { kind: 'scalar'; scalar: ScalarKind; withTimeZone?: boolean }
  | { kind: 'enum'; values: string[]; name?: string; schema?: string }
  | { kind: 'array'; item: IntrospectedType; sqlType?: string };

/** A column default: a constant, or an SQL expression the database evaluates. */
export type IntrospectedDefault =
  { kind: 'literal'; value: unknown } | { kind: 'expression'; sql: string };

/** One column of a table or view. */
export interface IntrospectedColumn {
  name: string;
  /** The type as the database names it, e.g. `character varying(20)`. */
  sqlType: string;
  type: IntrospectedType;
  allowNull: boolean;
  defaultValue?: IntrospectedDefault;
  /** Filled by the database (sequence, identity, generated column). */
  autoIncrement: boolean;
}

/** A single-column foreign key within the introspected schema. */
export interface IntrospectedForeignKey {
  column: string;
  foreignTable: string;
  foreignColumn: string;
}

/** One table or view. */
export interface IntrospectedTable {
  name: string;
  columns: IntrospectedColumn[];
  /** The primary key declared in the database, in key order (empty when none). */
  primaryKey: string[];
  /** Column lists of the unique constraints and unique indexes, primary key included. */
  uniques: string[][];
  foreignKeys: IntrospectedForeignKey[];
}

/**
 * Everything read from the database, serializable with `JSON.stringify` and accepted back by
 * `createSqlDataSource(uri, { introspection })` to skip introspection at start.
 */
export interface SqlIntrospection {
  version: typeof INTROSPECTION_VERSION;
  source: typeof INTROSPECTION_SOURCE;
  dialect: SqlDialect;
  /** The schema (PostgreSQL) or database (MySQL/MariaDB) introspected; absent for SQLite. */
  schema?: string;
  tables: IntrospectedTable[];
  views: IntrospectedTable[];
  /** What was skipped and why (unsupported types, composite or cross-schema foreign keys). */
  warnings: string[];
}
