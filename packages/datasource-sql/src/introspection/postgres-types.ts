import type { IntrospectedType, ScalarKind } from './introspection';

const SCALARS: Record<string, ScalarKind> = {
  bool: 'boolean',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  char: 'string',
  name: 'string',
  citext: 'string',
  xml: 'string',
  int2: 'integer',
  int4: 'integer',
  int8: 'bigint',
  oid: 'integer',
  numeric: 'decimal',
  float4: 'float',
  float8: 'float',
  timestamp: 'timestamp',
  timestamptz: 'timestamp',
  date: 'date',
  time: 'time',
  timetz: 'timetz',
  interval: 'interval',
  uuid: 'uuid',
  json: 'json',
  jsonb: 'json',
  bytea: 'binary',
  inet: 'network',
  cidr: 'network',
  macaddr: 'network',
  macaddr8: 'network',
  point: 'point',
};

/** A PostgreSQL type as described by `pg_type`, resolved through domains and arrays. */
export interface PostgresTypeInfo {
  name: string;
  /** `b` base, `e` enum, `d` domain, `c` composite, `r` range… */
  typtype: string;
  enumValues?: string[];
  schema?: string;
  /** The element type of an array type. */
  element?: PostgresTypeInfo;
  /** The base type of a domain. */
  base?: PostgresTypeInfo;
}

/**
 * Maps a PostgreSQL type to an introspected type, or `undefined` when it is not supported
 * (money, tsvector, ranges, geometric types other than point, composite types…).
 */
export function mapPostgresType(info: PostgresTypeInfo): IntrospectedType | undefined {
  if (info.element) {
    const item = mapPostgresType(info.element);
    if (!item || item.kind === 'array') return undefined;
    return { kind: 'array', item };
  }
  if (info.typtype === 'e') {
    return {
      kind: 'enum',
      values: info.enumValues ?? [],
      name: info.name,
      schema: info.schema,
    };
  }
  if (info.typtype === 'd' && info.base) return mapPostgresType(info.base);
  const scalar = SCALARS[info.name];
  if (!scalar) return undefined;
  return scalar === 'timestamp'
    ? { kind: 'scalar', scalar, withTimeZone: info.name === 'timestamptz' }
    : { kind: 'scalar', scalar };
}
