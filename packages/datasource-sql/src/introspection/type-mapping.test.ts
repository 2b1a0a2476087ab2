import { mapMysqlType, parseMysqlEnumLabels } from './mysql-types';
import { parseMysqlDefault, parsePostgresDefault, parseSqliteDefault } from './parse-default';
import { mapPostgresType } from './postgres-types';
import { mapSqliteType, parseSqliteCheckEnums } from './sqlite-types';

describe('PostgreSQL types', () => {
  it.each([
    ['int8', { kind: 'scalar', scalar: 'bigint' }],
    ['timestamptz', { kind: 'scalar', scalar: 'timestamp', withTimeZone: true }],
    ['timestamp', { kind: 'scalar', scalar: 'timestamp', withTimeZone: false }],
    ['interval', { kind: 'scalar', scalar: 'interval' }],
    ['timetz', { kind: 'scalar', scalar: 'timetz' }],
    ['inet', { kind: 'scalar', scalar: 'network' }],
    ['point', { kind: 'scalar', scalar: 'point' }],
    ['jsonb', { kind: 'scalar', scalar: 'json' }],
    ['money', undefined],
    ['tsvector', undefined],
  ])('maps %s', (name, expected) => {
    expect(mapPostgresType({ name, typtype: 'b' })).toEqual(expected);
  });

  it('maps enums, arrays of enums and domains', () => {
    expect(
      mapPostgresType({ name: 'mood', typtype: 'e', enumValues: ['ok', 'sad'], schema: 's' }),
    ).toEqual({ kind: 'enum', values: ['ok', 'sad'], name: 'mood', schema: 's' });
    expect(
      mapPostgresType({
        name: '_mood',
        typtype: 'b',
        element: { name: 'mood', typtype: 'e', enumValues: ['ok'] },
      }),
    ).toMatchObject({ kind: 'array', item: { kind: 'enum', values: ['ok'] } });
    expect(
      mapPostgresType({ name: 'email', typtype: 'd', base: { name: 'text', typtype: 'b' } }),
    ).toEqual({ kind: 'scalar', scalar: 'string' });
  });

  it('reads defaults: literals, casts, expressions and NULL', () => {
    const text = { kind: 'scalar', scalar: 'string' } as const;
    expect(parsePostgresDefault("'it''s'::character varying", text)).toEqual({
      kind: 'literal',
      value: "it's",
    });
    expect(parsePostgresDefault('NULL::text', text)).toBeUndefined();
    expect(parsePostgresDefault('now()', text)).toEqual({ kind: 'expression', sql: 'now()' });
    expect(parsePostgresDefault('(-12.5)', { kind: 'scalar', scalar: 'decimal' })).toEqual({
      kind: 'literal',
      value: -12.5,
    });
    expect(parsePostgresDefault('true', { kind: 'scalar', scalar: 'boolean' })).toEqual({
      kind: 'literal',
      value: true,
    });
    expect(parsePostgresDefault(`'{"a": 1}'::jsonb`, { kind: 'scalar', scalar: 'json' })).toEqual({
      kind: 'literal',
      value: { a: 1 },
    });
  });
});

describe('MySQL/MariaDB types', () => {
  it.each([
    ['tinyint', 'tinyint(1)', { kind: 'scalar', scalar: 'boolean' }],
    ['tinyint', 'tinyint(4)', { kind: 'scalar', scalar: 'integer' }],
    ['bigint', 'bigint(20) unsigned', { kind: 'scalar', scalar: 'bigint' }],
    ['datetime', 'datetime(3)', { kind: 'scalar', scalar: 'timestamp', withTimeZone: false }],
    ['longtext', 'longtext', { kind: 'scalar', scalar: 'string' }],
    ['geometry', 'geometry', undefined],
  ])('maps %s (%s)', (dataType, columnType, expected) => {
    expect(mapMysqlType(dataType, columnType)).toEqual(expected);
  });

  it('reads enum labels with quotes and escapes', () => {
    expect(parseMysqlEnumLabels("enum('a','it''s','back\\\\slash')")).toEqual([
      'a',
      "it's",
      'back\\slash',
    ]);
  });

  it('reads MariaDB quoted defaults and MySQL raw ones', () => {
    const text = { kind: 'scalar', scalar: 'string' } as const;
    expect(parseMysqlDefault("'FR'", text, { mariadb: true, generated: false })).toEqual({
      kind: 'literal',
      value: 'FR',
    });
    expect(parseMysqlDefault('NULL', text, { mariadb: true, generated: false })).toBeUndefined();
    expect(
      parseMysqlDefault('current_timestamp()', text, { mariadb: true, generated: false }),
    ).toEqual({ kind: 'expression', sql: 'current_timestamp()' });
    expect(parseMysqlDefault('FR', text, { mariadb: false, generated: false })).toEqual({
      kind: 'literal',
      value: 'FR',
    });
    expect(
      parseMysqlDefault('CURRENT_TIMESTAMP', text, { mariadb: false, generated: true }),
    ).toEqual({ kind: 'expression', sql: 'CURRENT_TIMESTAMP' });
  });
});

describe('SQLite types', () => {
  it.each([
    ['INTEGER', { kind: 'scalar', scalar: 'integer' }],
    ['varchar(255)', { kind: 'scalar', scalar: 'string' }],
    ['datetime', { kind: 'scalar', scalar: 'timestamp', withTimeZone: false }],
    ['json', { kind: 'scalar', scalar: 'json' }],
    ['decimal(10,2)', { kind: 'scalar', scalar: 'decimal' }],
    ['', { kind: 'scalar', scalar: 'binary' }],
    ['WHATEVER', undefined],
  ])('maps "%s"', (declared, expected) => {
    expect(mapSqliteType(declared)).toEqual(expected);
  });

  it('reads knex enums from CHECK constraints, and defaults', () => {
    const sql =
      "CREATE TABLE `t` (`status` text check (`status` in ('a', 'it''s')), \"kind\" text CHECK (\"kind\" IN ('x')))";
    expect(parseSqliteCheckEnums(sql)).toEqual(
      new Map([
        ['status', ['a', "it's"]],
        ['kind', ['x']],
      ]),
    );
    expect(parseSqliteDefault("'1'", { kind: 'scalar', scalar: 'boolean' })).toEqual({
      kind: 'literal',
      value: true,
    });
    expect(
      parseSqliteDefault('CURRENT_TIMESTAMP', { kind: 'scalar', scalar: 'timestamp' }),
    ).toEqual({ kind: 'expression', sql: 'CURRENT_TIMESTAMP' });
  });
});
