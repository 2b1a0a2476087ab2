import type { IntrospectedColumn } from '../introspection/introspection';

/** `varchar(50)`, `character varying(50)`, `char(2)`, `nvarchar(10)`… and their length. */
const SIZED_TEXT =
  /^(?:character varying|varchar|varchar2|nvarchar|character|char|nchar)\s*\(\s*(\d+)\s*\)/i;

/**
 * The most characters a text column's type holds, from its SQL type (`character varying(50)` →
 * 50, MySQL `char(2)` → 2), or `undefined` when the type sets no limit (`text`, `varchar`
 * without a length, enums, every non-text type).
 */
export function maxLengthOf(column: IntrospectedColumn): number | undefined {
  if (column.type.kind !== 'scalar' || column.type.scalar !== 'string') return undefined;
  const match = SIZED_TEXT.exec(column.sqlType.trim());
  return match ? Number(match[1]) : undefined;
}
