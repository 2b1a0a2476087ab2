import type { SqlDialect } from '../connection/sql-connection-params';

/** Escapes `%`, `_` and `\` so that user text matches literally inside a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Escapes `*`, `?` and `[` for a SQLite GLOB pattern (GLOB has no escape character). */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}

/** Turns a LIKE pattern (`%`, `_`) into a GLOB pattern matching the same strings. */
export function likeToGlob(pattern: string): string {
  return escapeGlob(pattern).replace(/%/g, '*').replace(/_/g, '?');
}

/** Where user text is anchored in a substring match. */
export type Anchor = 'contains' | 'starts' | 'ends';

/** A pattern for a literal substring match, in the dialect's case-sensitive matcher syntax. */
export function literalPattern(text: string, anchor: Anchor, glob: boolean): string {
  const escaped = glob ? escapeGlob(text) : escapeLike(text);
  const any = glob ? '*' : '%';
  if (anchor === 'starts') return `${escaped}${any}`;
  if (anchor === 'ends') return `${any}${escaped}`;
  return `${any}${escaped}${any}`;
}

/**
 * SQL for a case-sensitive pattern match of `??` against `?` per dialect: LIKE on PostgreSQL,
 * a binary LIKE on MySQL/MariaDB (whose collations ignore case), GLOB on SQLite.
 */
export function caseSensitiveMatch(dialect: SqlDialect, escaped: boolean): string {
  if (dialect === 'sqlite') return '?? GLOB ?';
  if (dialect === 'postgres') return escaped ? "?? LIKE ? ESCAPE '\\'" : '?? LIKE ?';
  return '?? LIKE BINARY ?';
}

/** SQL for a case-insensitive pattern match of `??` against `?`, portable across dialects. */
export function caseInsensitiveMatch(dialect: SqlDialect, escaped: boolean): string {
  if (dialect === 'postgres') return escaped ? "?? ILIKE ? ESCAPE '\\'" : '?? ILIKE ?';
  if (dialect === 'sqlite')
    return escaped ? "LOWER(??) LIKE LOWER(?) ESCAPE '\\'" : 'LOWER(??) LIKE LOWER(?)';
  return 'LOWER(??) LIKE LOWER(?)';
}
