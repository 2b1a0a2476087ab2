import type { Knex } from 'knex';
import type { ResolvedConnection } from '../connection/resolved-connection';
import type { IntrospectedTable, SqlIntrospection } from './introspection';
import { introspectMysql } from './mysql-introspector';
import { introspectPostgres } from './postgres-introspector';
import { introspectSqlite } from './sqlite-introspector';

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

/**
 * Drops what points at skipped columns or missing tables (unique lists, foreign keys) and
 * duplicate unique lists, so every consumer can trust the references.
 */
function clean(introspection: SqlIntrospection): SqlIntrospection {
  const warnings = [...introspection.warnings];
  const byName = new Map(introspection.tables.map((table) => [table.name, table]));
  const has = (table: IntrospectedTable, column: string) =>
    table.columns.some((candidate) => candidate.name === column);
  const tables = introspection.tables.map((table) => {
    const uniques: string[][] = [];
    for (const unique of table.uniques) {
      if (!unique.every((column) => has(table, column))) continue;
      if (!uniques.some((known) => sameColumns(known, unique))) uniques.push(unique);
    }
    const foreignKeys = table.foreignKeys.filter((key) => {
      const target = byName.get(key.foreignTable);
      const valid =
        has(table, key.column) && target !== undefined && has(target, key.foreignColumn);
      if (!valid) {
        warnings.push(
          `Failed to load the relation ${table.name}.${key.column} → ${key.foreignTable}.` +
            `${key.foreignColumn}: a column or table is missing. The relation will be ignored.`,
        );
      }
      return valid;
    });
    const primaryKey = table.primaryKey.every((column) => has(table, column))
      ? table.primaryKey
      : [];
    return { ...table, primaryKey, uniques, foreignKeys };
  });
  return { ...introspection, tables, warnings };
}

/** Reads the schema of the connected database into a serializable {@link SqlIntrospection}. */
export async function introspect(
  knex: Knex,
  connection: ResolvedConnection,
): Promise<SqlIntrospection> {
  switch (connection.dialect) {
    case 'postgres':
      return clean(await introspectPostgres(knex, connection.schema ?? 'public'));
    case 'mysql':
    case 'mariadb':
      return clean(
        await introspectMysql(knex, connection.schema ?? connection.database, connection.dialect),
      );
    default:
      return clean(await introspectSqlite(knex));
  }
}
