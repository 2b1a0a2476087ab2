import { compareNames } from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { SqlDataSourceError } from '../errors/sql-data-source-error';
import {
  INTROSPECTION_SOURCE,
  INTROSPECTION_VERSION,
  type IntrospectedTable,
  type SqlIntrospection,
} from './introspection';
import { parsePostgresDefault } from './parse-default';
import { mapPostgresType, type PostgresTypeInfo } from './postgres-types';

interface ColumnRow {
  table_name: string;
  relkind: string;
  column_name: string;
  formatted_type: string;
  allow_null: boolean;
  default_expr: string | null;
  is_identity: boolean;
  is_generated: boolean;
  type_name: string;
  type_type: string;
  type_oid: number;
  type_schema: string;
  elem_oid: number | null;
  elem_name: string | null;
  elem_type: string | null;
  elem_schema: string | null;
  base_oid: number | null;
  base_name: string | null;
  base_type: string | null;
}

interface ConstraintRow {
  table_name: string;
  contype: 'p' | 'u' | 'f';
  conname: string;
  columns: string[];
  foreign_schema: string | null;
  foreign_table: string | null;
  foreign_columns: string[] | null;
}

interface IndexRow {
  table_name: string;
  columns: string[];
}

const COLUMNS_SQL = `
SELECT c.relname AS table_name, c.relkind, a.attname AS column_name,
  format_type(a.atttypid, a.atttypmod) AS formatted_type,
  NOT a.attnotnull AS allow_null,
  pg_get_expr(d.adbin, d.adrelid) AS default_expr,
  a.attidentity <> '' AS is_identity,
  a.attgenerated <> '' AS is_generated,
  t.typname AS type_name, t.typtype AS type_type, t.oid::int AS type_oid,
  tn.nspname AS type_schema,
  et.oid::int AS elem_oid, et.typname AS elem_name, et.typtype AS elem_type,
  en.nspname AS elem_schema,
  bt.oid::int AS base_oid, bt.typname AS base_name, bt.typtype AS base_type
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_namespace tn ON tn.oid = t.typnamespace
LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
LEFT JOIN pg_namespace en ON en.oid = et.typnamespace
LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum`;

const ENUMS_SQL = `
SELECT e.enumtypid::int AS type_oid, e.enumlabel AS label
FROM pg_enum e ORDER BY e.enumtypid, e.enumsortorder`;

const CONSTRAINTS_SQL = `
SELECT cl.relname AS table_name, con.contype, con.conname,
  ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(num, ord)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num
        ORDER BY k.ord)::text[] AS columns,
  fn.nspname AS foreign_schema, fcl.relname AS foreign_table,
  ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(num, ord)
        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num
        ORDER BY k.ord)::text[] AS foreign_columns
FROM pg_constraint con
JOIN pg_class cl ON cl.oid = con.conrelid
JOIN pg_namespace n ON n.oid = cl.relnamespace
LEFT JOIN pg_class fcl ON fcl.oid = con.confrelid
LEFT JOIN pg_namespace fn ON fn.oid = fcl.relnamespace
WHERE n.nspname = ? AND con.contype IN ('p', 'u', 'f')
ORDER BY cl.relname, con.conname`;

const UNIQUE_INDEXES_SQL = `
SELECT cl.relname AS table_name,
  ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(num, ord)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num
        ORDER BY k.ord)::text[] AS columns
FROM pg_index i
JOIN pg_class cl ON cl.oid = i.indrelid
JOIN pg_namespace n ON n.oid = cl.relnamespace
WHERE n.nspname = ? AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL`;

function rowsOf<T>(result: { rows: T[] }): T[] {
  return result.rows;
}

function typeInfo(row: ColumnRow, enums: Map<number, string[]>): PostgresTypeInfo {
  const info: PostgresTypeInfo = {
    name: row.type_name,
    typtype: row.type_type,
    schema: row.type_schema,
    enumValues: enums.get(row.type_oid),
  };
  if (row.elem_oid !== null && row.elem_name !== null) {
    info.element = {
      name: row.elem_name,
      typtype: row.elem_type ?? 'b',
      schema: row.elem_schema ?? undefined,
      enumValues: enums.get(row.elem_oid),
    };
  }
  if (row.base_oid !== null && row.base_name !== null) {
    info.base = {
      name: row.base_name,
      typtype: row.base_type ?? 'b',
      enumValues: enums.get(row.base_oid),
    };
  }
  return info;
}

/** A schema name with a typo would otherwise give a data source without collections. */
async function assertSchemaExists(knex: Knex, schema: string): Promise<void> {
  const { rows } = (await knex.raw(
    "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' ORDER BY nspname",
  )) as { rows: Array<{ nspname: string }> };
  const names = rows.map((row) => row.nspname);
  if (!names.includes(schema)) {
    throw new SqlDataSourceError(
      'INVALID_CONNECTION_OPTIONS',
      `The schema "${schema}" does not exist in this database. Available schemas: [${names.join(', ')}].`,
    );
  }
}

/** Reads tables, views, keys and foreign keys of one PostgreSQL schema in four catalog queries. */
export async function introspectPostgres(knex: Knex, schema: string): Promise<SqlIntrospection> {
  await assertSchemaExists(knex, schema);
  const [columnRows, enumRows, constraintRows, indexRows] = await Promise.all([
    knex.raw(COLUMNS_SQL, [schema]).then((r) => rowsOf<ColumnRow>(r)),
    knex.raw(ENUMS_SQL).then((r) => rowsOf<{ type_oid: number; label: string }>(r)),
    knex.raw(CONSTRAINTS_SQL, [schema]).then((r) => rowsOf<ConstraintRow>(r)),
    knex.raw(UNIQUE_INDEXES_SQL, [schema]).then((r) => rowsOf<IndexRow>(r)),
  ]);

  const enums = new Map<number, string[]>();
  for (const row of enumRows) {
    const labels = enums.get(row.type_oid) ?? [];
    labels.push(row.label);
    enums.set(row.type_oid, labels);
  }

  const warnings: string[] = [];
  const tables = new Map<string, IntrospectedTable & { view: boolean }>();
  for (const row of columnRows) {
    let table = tables.get(row.table_name);
    if (!table) {
      table = {
        name: row.table_name,
        view: row.relkind === 'v' || row.relkind === 'm',
        columns: [],
        primaryKey: [],
        uniques: [],
        foreignKeys: [],
      };
      tables.set(row.table_name, table);
    }
    const type = mapPostgresType(typeInfo(row, enums));
    if (!type) {
      warnings.push(
        `Skipping column ${row.table_name}.${row.column_name} (Unsupported type: ${row.formatted_type}).`,
      );
      continue;
    }
    const sequence = row.default_expr?.startsWith('nextval(') ?? false;
    const autoIncrement = row.is_identity || sequence || row.is_generated;
    table.columns.push({
      name: row.column_name,
      sqlType: row.formatted_type,
      type,
      allowNull: row.allow_null,
      defaultValue: autoIncrement ? undefined : parsePostgresDefault(row.default_expr, type),
      autoIncrement,
    });
  }

  for (const row of constraintRows) {
    const table = tables.get(row.table_name);
    if (!table) continue;
    if (row.contype === 'p') table.primaryKey = row.columns;
    if (row.contype === 'f') {
      if (row.columns.length > 1) {
        warnings.push(
          `Composite relations are not supported: skipping foreign key ${row.conname} of ` +
            `${row.table_name} (${row.columns.join(', ')}).`,
        );
      } else if (row.foreign_schema !== schema) {
        warnings.push(
          `Skipping foreign key ${row.conname} of ${row.table_name}: it targets another schema ` +
            `(${row.foreign_schema ?? '?'}).`,
        );
      } else {
        table.foreignKeys.push({
          column: row.columns[0] as string,
          foreignTable: row.foreign_table as string,
          foreignColumn: (row.foreign_columns ?? [])[0] as string,
        });
      }
    }
  }
  for (const row of indexRows) tables.get(row.table_name)?.uniques.push(row.columns);

  const all = [...tables.values()].sort((a, b) => compareNames(a.name, b.name));
  const strip = ({ view: _view, ...table }: IntrospectedTable & { view: boolean }) => table;
  return {
    version: INTROSPECTION_VERSION,
    source: INTROSPECTION_SOURCE,
    dialect: 'postgres',
    schema,
    tables: all.filter((table) => !table.view).map(strip),
    views: all
      .filter((table) => table.view)
      .map((table) => ({ ...strip(table), primaryKey: [], uniques: [], foreignKeys: [] })),
    warnings,
  };
}
