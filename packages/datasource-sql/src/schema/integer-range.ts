import type { SqlDialect } from '../connection/sql-connection-params';
import type { IntrospectedColumn } from '../introspection/introspection';

function range(bits: number, unsigned: boolean): readonly [string, string] {
  const size = 2n ** BigInt(bits);
  return unsigned ? ['0', String(size - 1n)] : [String(-size / 2n), String(size / 2n - 1n)];
}

/** Width in bits of an integer SQL type by its name, when the name says it. */
function bitsOf(sqlType: string, dialect: SqlDialect): number | undefined {
  const name = sqlType.toLowerCase();
  if (dialect === 'sqlite') return 64;
  if (/^(tinyint|int1)\b/.test(name)) return 8;
  if (/^(smallint|int2|smallserial)\b/.test(name)) return 16;
  if (/^(mediumint|int3)\b/.test(name)) return 24;
  if (/^(bigint|int8|bigserial)\b/.test(name)) return 64;
  if (/^(integer|int|int4|serial|oid)\b/.test(name)) return 32;
  return undefined;
}

/**
 * The values an integer column can store, from its SQL type (`integer` → 32 bits signed, MySQL
 * `int unsigned` → 0…2^32-1, SQLite → 64 bits): an id or filter value outside it is refused
 * before the database answers "out of range". `undefined` for any other column.
 */
export function integerRangeOf(
  column: IntrospectedColumn,
  dialect: SqlDialect,
): readonly [string, string] | undefined {
  if (column.type.kind !== 'scalar') return undefined;
  const { scalar } = column.type;
  if (scalar !== 'integer' && scalar !== 'bigint') return undefined;
  const unsigned = /\bunsigned\b/i.test(column.sqlType) || /^oid\b/i.test(column.sqlType);
  // A domain or an unusual spelling: the widest type of the introspected kind.
  const bits = bitsOf(column.sqlType, dialect) ?? (scalar === 'bigint' ? 64 : 32);
  return range(bits, unsigned);
}
