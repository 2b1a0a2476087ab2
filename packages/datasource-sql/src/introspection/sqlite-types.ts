import type { IntrospectedType } from './introspection';

/**
 * Maps a declared SQLite column type to an introspected type. SQLite keeps the declared name,
 * so the names knex and other tools write (`datetime`, `json`, `uuid`, `boolean`…) are read
 * first, then the type affinity rules of SQLite decide.
 */
export function mapSqliteType(declared: string): IntrospectedType | undefined {
  const type = declared.toUpperCase().replace(/\(.*$/, '').trim();
  const named: Record<string, IntrospectedType> = {
    BOOLEAN: { kind: 'scalar', scalar: 'boolean' },
    BOOL: { kind: 'scalar', scalar: 'boolean' },
    DATE: { kind: 'scalar', scalar: 'date' },
    DATETIME: { kind: 'scalar', scalar: 'timestamp', withTimeZone: false },
    TIMESTAMP: { kind: 'scalar', scalar: 'timestamp', withTimeZone: false },
    TIMESTAMPTZ: { kind: 'scalar', scalar: 'timestamp', withTimeZone: true },
    TIME: { kind: 'scalar', scalar: 'time' },
    JSON: { kind: 'scalar', scalar: 'json' },
    JSONB: { kind: 'scalar', scalar: 'json' },
    UUID: { kind: 'scalar', scalar: 'uuid' },
    BIGINT: { kind: 'scalar', scalar: 'bigint' },
    BLOB: { kind: 'scalar', scalar: 'binary' },
    '': { kind: 'scalar', scalar: 'binary' },
  };
  const exact = named[type];
  if (exact) return exact;
  if (type.includes('INT')) return { kind: 'scalar', scalar: 'integer' };
  if (/CHAR|CLOB|TEXT/.test(type)) return { kind: 'scalar', scalar: 'string' };
  if (/REAL|FLOA|DOUB/.test(type)) return { kind: 'scalar', scalar: 'float' };
  if (/DECIMAL|NUMERIC/.test(type)) return { kind: 'scalar', scalar: 'decimal' };
  return undefined;
}

/** Enum-like columns declared as `CHECK ("status" IN ('a', 'b'))`, as knex writes enums. */
export function parseSqliteCheckEnums(createSql: string): Map<string, string[]> {
  const enums = new Map<string, string[]>();
  const pattern =
    /check\s*\(\s*[`"[]?([^`"\]\s]+)[`"\]]?\s+in\s*\(((?:\s*'(?:[^']|'')*'\s*,?)+)\)\s*\)/gi;
  for (const match of createSql.matchAll(pattern)) {
    const labels = [...(match[2] ?? '').matchAll(/'((?:[^']|'')*)'/g)].map((label) =>
      (label[1] ?? '').replace(/''/g, "'"),
    );
    enums.set(match[1] ?? '', labels);
  }
  return enums;
}
