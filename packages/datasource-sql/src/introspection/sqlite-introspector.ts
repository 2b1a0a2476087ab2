import type { Knex } from 'knex';
import {
  INTROSPECTION_SOURCE,
  INTROSPECTION_VERSION,
  type IntrospectedTable,
  type SqlIntrospection,
} from './introspection';
import { parseSqliteDefault } from './parse-default';
import { mapSqliteType, parseSqliteCheckEnums } from './sqlite-types';

interface MasterRow {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
}
interface ColumnRow {
  t: string;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}
interface IndexRow {
  t: string;
  idx: string;
  name: string;
}
interface ForeignKeyRow {
  t: string;
  id: number;
  seq: number;
  ftable: string;
  from: string;
  to: string | null;
}

/** Pragma numbers arrive as BigInt (the pool reads integers safely): make them numbers. */
function numbers<T extends object>(rows: T[], keys: Array<keyof T>): T[] {
  return rows.map((row) => {
    const copy = { ...row };
    for (const key of keys) {
      const value = copy[key];
      if (typeof value === 'bigint') (copy as Record<keyof T, unknown>)[key] = Number(value);
    }
    return copy;
  });
}

/** Reads tables, views, keys and foreign keys of a SQLite database with pragma functions. */
export async function introspectSqlite(knex: Knex): Promise<SqlIntrospection> {
  const master = (await knex.raw(
    `SELECT name, type, sql FROM sqlite_master
     WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       AND name NOT LIKE 'knex\\_%' ESCAPE '\\' ORDER BY name`,
  )) as MasterRow[];
  const columns = numbers(
    (await knex.raw(
      `SELECT m.name AS t, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
     FROM sqlite_master m JOIN pragma_table_xinfo(m.name) p
     WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid`,
    )) as ColumnRow[],
    ['notnull', 'pk', 'hidden'],
  );
  const indexes = (await knex.raw(
    `SELECT m.name AS t, il.name AS idx, ii.name
     FROM sqlite_master m JOIN pragma_index_list(m.name) il JOIN pragma_index_info(il.name) ii
     WHERE m.type = 'table' AND il."unique" = 1 AND il.partial = 0 ORDER BY m.name, il.name, ii.seqno`,
  )) as IndexRow[];
  const foreignKeys = numbers(
    (await knex.raw(
      `SELECT m.name AS t, f.id, f.seq, f."table" AS ftable, f."from", f."to"
     FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`,
    )) as ForeignKeyRow[],
    ['id', 'seq'],
  );

  const warnings: string[] = [];
  const tables = new Map<string, IntrospectedTable & { view: boolean }>();
  const checkEnums = new Map<string, Map<string, string[]>>();
  for (const row of master) {
    tables.set(row.name, {
      name: row.name,
      view: row.type === 'view',
      columns: [],
      primaryKey: [],
      uniques: [],
      foreignKeys: [],
    });
    checkEnums.set(row.name, parseSqliteCheckEnums(row.sql ?? ''));
  }

  const keyed = new Map<string, ColumnRow[]>();
  for (const row of columns) {
    const table = tables.get(row.t);
    if (!table) continue;
    const labels = checkEnums.get(row.t)?.get(row.name);
    const type = labels ? { kind: 'enum' as const, values: labels } : mapSqliteType(row.type);
    if (!type) {
      warnings.push(`Skipping column ${row.t}.${row.name} (Unsupported type: ${row.type}).`);
      continue;
    }
    if (row.pk > 0) keyed.set(row.t, [...(keyed.get(row.t) ?? []), row]);
    table.columns.push({
      name: row.name,
      sqlType: row.type,
      type,
      allowNull: row.notnull === 0 && row.pk === 0,
      defaultValue: parseSqliteDefault(row.dflt_value, type),
      autoIncrement: row.hidden === 2 || row.hidden === 3,
    });
  }
  for (const [name, rows] of keyed) {
    const table = tables.get(name);
    if (!table || table.view) continue;
    table.primaryKey = rows.sort((a, b) => a.pk - b.pk).map((row) => row.name);
    // A single INTEGER PRIMARY KEY is an alias of the rowid: SQLite fills it.
    const [only] = rows;
    if (rows.length === 1 && only && only.type.toUpperCase() === 'INTEGER') {
      const column = table.columns.find((candidate) => candidate.name === only.name);
      if (column) column.autoIncrement = true;
    }
    table.uniques.push(table.primaryKey);
  }

  const indexColumns = new Map<string, { table: string; columns: string[] }>();
  for (const row of indexes) {
    const key = `${row.t}\u0000${row.idx}`;
    const index = indexColumns.get(key) ?? { table: row.t, columns: [] };
    index.columns.push(row.name);
    indexColumns.set(key, index);
  }
  for (const index of indexColumns.values()) tables.get(index.table)?.uniques.push(index.columns);

  const groups = new Map<string, ForeignKeyRow[]>();
  for (const row of foreignKeys) {
    const key = `${row.t}\u0000${row.id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const rows of groups.values()) {
    const [first] = rows;
    const table = first ? tables.get(first.t) : undefined;
    if (!first || !table) continue;
    if (rows.length > 1) {
      warnings.push(`Composite relations are not supported: skipping a foreign key of ${first.t}.`);
      continue;
    }
    const target = tables.get(first.ftable);
    const foreignColumn = first.to ?? target?.primaryKey[0];
    if (!foreignColumn) continue;
    table.foreignKeys.push({ column: first.from, foreignTable: first.ftable, foreignColumn });
  }

  const all = [...tables.values()];
  const strip = ({ view: _view, ...table }: IntrospectedTable & { view: boolean }) => table;
  return {
    version: INTROSPECTION_VERSION,
    source: INTROSPECTION_SOURCE,
    dialect: 'sqlite',
    tables: all.filter((table) => !table.view).map(strip),
    views: all
      .filter((table) => table.view)
      .map((table) => ({ ...strip(table), primaryKey: [], uniques: [], foreignKeys: [] })),
    warnings,
  };
}
