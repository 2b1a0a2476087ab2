import pg from 'pg';

/** `pg`'s built-in parser of a type (read only: this package never changes `pg.types`). */
export const builtinParser = pg.types.getTypeParser as unknown as (
  oid: number,
  format: 'text' | 'binary',
) => (value: string) => unknown;

/** `pg`'s parser of PostgreSQL array text (`{a,"b c",NULL}`) into an array of strings. */
export const parseTextArray = builtinParser(1009, 'text') as (value: string) => string[];
