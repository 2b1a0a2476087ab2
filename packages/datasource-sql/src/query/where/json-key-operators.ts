import type { Operator } from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import type { SqlDialect } from '../../connection/sql-connection-params';
import { MATCH_ALL, MATCH_NONE, bindings } from './leaf';

/** A condition on the value at a key path inside a JSON column (`address:country`). */
export interface JsonKeyLeaf {
  query: Knex.QueryBuilder;
  /** Qualified JSON column reference (`alias.column`), bound as an identifier (`??`). */
  ref: string;
  /** The keys from the column to the value, outermost first. */
  keys: readonly string[];
  dialect: SqlDialect;
  value: unknown;
}

type Fragment = [sql: string, bindings: unknown[]];

/** A MySQL/MariaDB JSON path with every key quoted: `$."address"."city"`. */
function mysqlPath(keys: readonly string[]): string {
  return `$${keys.map((key) => `."${key.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join('')}`;
}

/** The value at the path as text; NULL when the key is missing or holds a JSON `null`. */
function text({ ref, keys, dialect }: JsonKeyLeaf): Fragment {
  if (dialect === 'postgres') {
    return [
      `jsonb_extract_path_text(??::jsonb, ${keys.map(() => '?').join(', ')})`,
      [ref, ...keys],
    ];
  }
  return ['JSON_VALUE(??, ?)', [ref, mysqlPath(keys)]];
}

/**
 * The value at the path equals `value`, compared as JSON values are: text with text (case and
 * accents counting), a number with a number (`48.50` is `48.5`), a boolean with a boolean.
 */
function equals(leaf: JsonKeyLeaf, value: unknown): Fragment {
  const { ref, keys } = leaf;
  if (leaf.dialect === 'postgres') {
    const path = keys.map(() => '?').join(', ');
    return [
      `jsonb_extract_path(??::jsonb, ${path}) = ?::jsonb`,
      [ref, ...keys, JSON.stringify(value)],
    ];
  }
  const path = mysqlPath(keys);
  if (typeof value === 'string') return ['BINARY JSON_VALUE(??, ?) = BINARY ?', [ref, path, value]];
  if (typeof value === 'number') return ['JSON_VALUE(??, ?) = ?', [ref, path, value]];
  const json = typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return ['JSON_UNQUOTE(JSON_EXTRACT(??, ?)) = ?', [ref, path, json]];
}

/** `(a OR b …)` over fragments. */
function anyOf(fragments: Fragment[]): Fragment {
  return [
    `(${fragments.map(([sql]) => sql).join(' OR ')})`,
    fragments.flatMap(([, values]) => values),
  ];
}

function where(leaf: JsonKeyLeaf, [sql, values]: Fragment): Knex.QueryBuilder {
  return leaf.query.whereRaw(sql, bindings(values));
}

const isNull = (value: unknown) => value === null || value === undefined;

function missing(leaf: JsonKeyLeaf): Fragment {
  const [sql, values] = text(leaf);
  return [`${sql} IS NULL`, values];
}

function membership(leaf: JsonKeyLeaf, negate: boolean): Knex.QueryBuilder {
  const values = leaf.value as unknown[];
  const nonNull = values.filter((value) => !isNull(value));
  const hasNull = nonNull.length !== values.length;
  const [absent, absentValues] = missing(leaf);
  if (nonNull.length === 0) {
    if (!hasNull) return leaf.query.whereRaw(negate ? MATCH_ALL : MATCH_NONE);
    return where(leaf, negate ? [`NOT (${absent})`, absentValues] : [absent, absentValues]);
  }
  const [match, matchValues] = anyOf(nonNull.map((value) => equals(leaf, value)));
  if (!negate) {
    return where(
      leaf,
      hasNull ? anyOf([[match, matchValues], missing(leaf)]) : [match, matchValues],
    );
  }
  // A missing value is in no list: NOT IN matches it, unless the list holds null.
  return where(
    leaf,
    hasNull
      ? [`(NOT (${absent}) AND NOT (${match}))`, [...absentValues, ...matchValues]]
      : [`(NOT (${match}) OR ${absent})`, [...matchValues, ...absentValues]],
  );
}

/**
 * Presence, equality and membership of the value at a key path inside a JSON column
 * (data-semantics §4.6, as on a column): `NotEqual` and `NotIn` also match a missing value;
 * `Present`/`Blank` treat the empty string as blank. PostgreSQL reads the path with
 * `jsonb_extract_path`, MySQL/MariaDB with `JSON_VALUE`/`JSON_EXTRACT`; keys are bound values.
 */
export const JSON_KEY_OPERATORS: Partial<
  Record<Operator, (leaf: JsonKeyLeaf) => Knex.QueryBuilder>
> = {
  Missing: (leaf) => where(leaf, missing(leaf)),
  Present: (leaf) => {
    const [sql, values] = text(leaf);
    return where(leaf, [`${sql} IS NOT NULL AND ${sql} <> ''`, [...values, ...values]]);
  },
  Blank: (leaf) => {
    const [sql, values] = text(leaf);
    return where(leaf, [`(${sql} IS NULL OR ${sql} = '')`, [...values, ...values]]);
  },
  Equal: (leaf) => where(leaf, isNull(leaf.value) ? missing(leaf) : equals(leaf, leaf.value)),
  NotEqual: (leaf) => {
    const [absent, absentValues] = missing(leaf);
    if (isNull(leaf.value)) return where(leaf, [`NOT (${absent})`, absentValues]);
    const [match, matchValues] = equals(leaf, leaf.value);
    return where(leaf, [`(NOT (${match}) OR ${absent})`, [...matchValues, ...absentValues]]);
  },
  In: (leaf) => membership(leaf, false),
  NotIn: (leaf) => membership(leaf, true),
};
