import type { IntrospectedDefault, IntrospectedType } from './introspection';

function literalFor(type: IntrospectedType, text: string): IntrospectedDefault {
  if (type.kind === 'array') return { kind: 'expression', sql: text };
  if (type.kind === 'enum') return { kind: 'literal', value: text };
  switch (type.scalar) {
    case 'boolean': {
      const lower = text.toLowerCase();
      if (['true', '1', "b'1'", 't'].includes(lower)) return { kind: 'literal', value: true };
      if (['false', '0', "b'0'", 'f'].includes(lower)) return { kind: 'literal', value: false };
      return { kind: 'expression', sql: text };
    }
    case 'integer':
    case 'float':
    case 'bigint':
    case 'decimal': {
      const value = Number(text);
      return Number.isFinite(value) && text.trim() !== ''
        ? { kind: 'literal', value }
        : { kind: 'expression', sql: text };
    }
    case 'json':
      try {
        return { kind: 'literal', value: JSON.parse(text) };
      } catch {
        return { kind: 'expression', sql: text };
      }
    default:
      return { kind: 'literal', value: text };
  }
}

/**
 * Reads a PostgreSQL column default (`pg_get_expr`): `'abc'::text` and numbers are constants,
 * `NULL::type` is no default, function calls and other expressions stay SQL.
 */
export function parsePostgresDefault(
  expression: string | null,
  type: IntrospectedType,
): IntrospectedDefault | undefined {
  if (expression === null || /^NULL(::.*)?$/i.test(expression)) return undefined;
  const quoted = /^'((?:[^']|'')*)'(?:::[\w\s."[\]()]+)?$/s.exec(expression);
  if (quoted) return literalFor(type, (quoted[1] ?? '').replace(/''/g, "'"));
  const numeric = /^\(?(-?\d+(?:\.\d+)?)\)?(?:::[\w\s]+)?$/.exec(expression);
  if (numeric) return literalFor(type, numeric[1] ?? '');
  if (/^(true|false)$/i.test(expression)) return literalFor(type, expression);
  return { kind: 'expression', sql: expression };
}

/**
 * Reads a MySQL/MariaDB `COLUMN_DEFAULT`. MariaDB quotes literals (`'abc'`) and writes `NULL`;
 * MySQL gives literals unquoted and flags expressions with `DEFAULT_GENERATED` in `EXTRA`.
 */
export function parseMysqlDefault(
  value: string | null,
  type: IntrospectedType,
  options: { mariadb: boolean; generated: boolean },
): IntrospectedDefault | undefined {
  if (value === null) return undefined;
  if (options.mariadb) {
    if (value === 'NULL') return undefined;
    const quoted = /^'((?:[^'\\]|''|\\.)*)'$/s.exec(value);
    if (quoted) {
      const text = (quoted[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1');
      return literalFor(type, text);
    }
    if (/^-?\d+(\.\d+)?$/.test(value)) return literalFor(type, value);
    return { kind: 'expression', sql: value };
  }
  if (options.generated) return { kind: 'expression', sql: value };
  return literalFor(type, value);
}

/** Reads a SQLite `dflt_value` (the default as written in `CREATE TABLE`). */
export function parseSqliteDefault(
  value: string | null,
  type: IntrospectedType,
): IntrospectedDefault | undefined {
  if (value === null || /^NULL$/i.test(value)) return undefined;
  const quoted = /^'((?:[^']|'')*)'$/s.exec(value);
  if (quoted) return literalFor(type, (quoted[1] ?? '').replace(/''/g, "'"));
  if (/^-?\d+(\.\d+)?$/.test(value)) return literalFor(type, value);
  if (/^(true|false)$/i.test(value)) return literalFor(type, value);
  return { kind: 'expression', sql: value };
}
