import type { Knex } from 'knex';
import type { SqlDialect } from '../connection/sql-connection-params';
import {
  INTROSPECTION_SOURCE,
  INTROSPECTION_VERSION,
  type IntrospectedTable,
  type SqlIntrospection,
} from './introspection';
import { mapMysqlType } from './mysql-types';
import { parseMysqlDefault } from './parse-default';

interface Row {
  [key: string]: unknown;
}

async function select(knex: Knex, sql: string, bindings: string[]): Promise<Row[]> {
  const [rows] = (await knex.raw(sql, bindings)) as [Row[]];
  return rows;
}

/** Column names that MariaDB validates as JSON (`CHECK (json_valid(col))`), per table. */
async function mariadbJsonColumns(knex: Knex, schema: string): Promise<Set<string>> {
  const rows = await select(
    knex,
    `SELECT TABLE_NAME AS t, CHECK_CLAUSE AS c FROM information_schema.CHECK_CONSTRAINTS
     WHERE CONSTRAINT_SCHEMA = ?`,
    [schema],
  );
  const columns = new Set<string>();
  for (const row of rows) {
    const match = /^json_valid\(`((?:[^`]|``)+)`\)$/i.exec(String(row.c).trim());
    if (match) columns.add(`${String(row.t)}.${(match[1] ?? '').replace(/``/g, '`')}`);
  }
  return columns;
}

/** Reads tables, views, keys and foreign keys of one MySQL/MariaDB database. */
export async function introspectMysql(
  knex: Knex,
  schema: string,
  dialect: SqlDialect,
): Promise<SqlIntrospection> {
  const [versionRow] = await select(knex, 'SELECT VERSION() AS v', []);
  const mariadb = String(versionRow?.v ?? '').includes('MariaDB');
  const [tableRows, columnRows, indexRows, foreignKeyRows, jsonColumns] = await Promise.all([
    select(
      knex,
      `SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES
       WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME`,
      [schema],
    ),
    select(
      knex,
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS name, DATA_TYPE AS dataType,
         COLUMN_TYPE AS columnType, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS def, EXTRA AS extra
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?
       ORDER BY TABLE_NAME, ORDINAL_POSITION`,
      [schema],
    ),
    select(
      knex,
      `SELECT TABLE_NAME AS t, INDEX_NAME AS idx, COLUMN_NAME AS name
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND NON_UNIQUE = 0
       ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
      [schema],
    ),
    select(
      knex,
      `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS con, COLUMN_NAME AS name,
         REFERENCED_TABLE_SCHEMA AS fschema, REFERENCED_TABLE_NAME AS ftable,
         REFERENCED_COLUMN_NAME AS fcolumn
       FROM information_schema.KEY_COLUMN_USAGE
       WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL
       ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
      [schema],
    ),
    mariadb ? mariadbJsonColumns(knex, schema) : Promise.resolve(new Set<string>()),
  ]);

  const warnings: string[] = [];
  const tables = new Map<string, IntrospectedTable & { view: boolean }>();
  for (const row of tableRows) {
    tables.set(String(row.name), {
      name: String(row.name),
      view: String(row.type).includes('VIEW'),
      columns: [],
      primaryKey: [],
      uniques: [],
      foreignKeys: [],
    });
  }
  for (const row of columnRows) {
    const table = tables.get(String(row.t));
    if (!table) continue;
    const name = String(row.name);
    const columnType = String(row.columnType);
    const type = jsonColumns.has(`${table.name}.${name}`)
      ? ({ kind: 'scalar', scalar: 'json' } as const)
      : mapMysqlType(String(row.dataType), columnType);
    if (!type) {
      warnings.push(`Skipping column ${table.name}.${name} (Unsupported type: ${columnType}).`);
      continue;
    }
    const extra = String(row.extra ?? '').toLowerCase();
    const autoIncrement =
      extra.includes('auto_increment') ||
      extra.includes('virtual generated') ||
      extra.includes('stored generated') ||
      extra.includes('persistent');
    table.columns.push({
      name,
      sqlType: columnType,
      type,
      allowNull: row.nullable === 'YES',
      defaultValue: autoIncrement
        ? undefined
        : parseMysqlDefault(row.def === null ? null : String(row.def), type, {
            mariadb,
            generated: extra.includes('default_generated'),
          }),
      autoIncrement,
    });
  }

  const indexes = new Map<string, { table: string; columns: string[] }>();
  for (const row of indexRows) {
    const key = `${String(row.t)}\u0000${String(row.idx)}`;
    const index = indexes.get(key) ?? { table: String(row.t), columns: [] };
    index.columns.push(String(row.name));
    indexes.set(key, index);
    if (row.idx === 'PRIMARY') tables.get(String(row.t))?.primaryKey.push(String(row.name));
  }
  for (const index of indexes.values()) tables.get(index.table)?.uniques.push(index.columns);

  const foreignKeys = new Map<string, Row[]>();
  for (const row of foreignKeyRows) {
    const key = `${String(row.t)}\u0000${String(row.con)}`;
    foreignKeys.set(key, [...(foreignKeys.get(key) ?? []), row]);
  }
  for (const rows of foreignKeys.values()) {
    const [first] = rows;
    if (!first) continue;
    const table = tables.get(String(first.t));
    if (!table) continue;
    if (rows.length > 1) {
      warnings.push(
        `Composite relations are not supported: skipping foreign key ${String(first.con)} of ${table.name}.`,
      );
    } else if (String(first.fschema) !== schema) {
      warnings.push(
        `Skipping foreign key ${String(first.con)} of ${table.name}: it targets another database.`,
      );
    } else {
      table.foreignKeys.push({
        column: String(first.name),
        foreignTable: String(first.ftable),
        foreignColumn: String(first.fcolumn),
      });
    }
  }

  const all = [...tables.values()];
  const strip = ({ view: _view, ...table }: IntrospectedTable & { view: boolean }) => table;
  return {
    version: INTROSPECTION_VERSION,
    source: INTROSPECTION_SOURCE,
    dialect,
    schema,
    tables: all.filter((table) => !table.view).map(strip),
    views: all
      .filter((table) => table.view)
      .map((table) => ({ ...strip(table), primaryKey: [], uniques: [], foreignKeys: [] })),
    warnings,
  };
}
