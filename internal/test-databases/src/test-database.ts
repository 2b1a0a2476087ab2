import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@canopy/datasource-sql';

export type TestDialect = 'postgres' | 'mariadb' | 'embedded-postgres';

/** A fresh, empty database namespace that belongs to one test file. */
export interface TestDatabase {
  readonly dialect: TestDialect;
  /** Schema (PostgreSQL) or database (MariaDB) name, unique to this test database. */
  readonly name: string;
  /** URL that reaches this namespace (`?schema=` for PostgreSQL). */
  readonly url: string;
  /** knex connected to the namespace (search_path / default database set). */
  readonly knex: Knex;
  /** Knex connection settings of the namespace, for code under test that opens its own pool. */
  readonly connection: Knex.StaticConnectionConfig;
  /** Drops the namespace and closes every connection this helper opened. */
  drop(): Promise<void>;
}

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

function uniqueName(): string {
  return `canopy_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

function describeServer(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port}${parsed.pathname}`;
}

async function checked<T>(what: string, url: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not ${what} on ${describeServer(url)}: ${reason}. ` +
        'Start the server (see .ci/run) or point PG_URL / MYSQL_URL at one.',
      { cause: error },
    );
  }
}

/** A fresh schema in the PostgreSQL at `PG_URL` (default 127.0.0.1:5432/test, user postgres). */
export async function createPostgresTestDatabase(
  url = process.env.PG_URL ?? DEFAULT_PG_URL,
): Promise<TestDatabase> {
  return createPostgresSchema('postgres', url, async () => undefined);
}

/** A fresh schema in a new in-process PostgreSQL (PGlite); nothing needs to be installed. */
export async function createEmbeddedPostgresTestDatabase(): Promise<TestDatabase> {
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres();
  return createPostgresSchema('embedded-postgres', embedded.url, () => embedded.close(), 1);
}

async function createPostgresSchema(
  dialect: TestDialect,
  url: string,
  closeServer: () => Promise<void>,
  maxConnections = 4,
): Promise<TestDatabase> {
  const name = uniqueName();
  const parsed = new URL(url);
  const connection: Knex.PgConnectionConfig = {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username || 'postgres'),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.slice(1) || 'postgres',
  };
  const admin = knexFactory({ client: 'pg', connection, pool: { min: 0, max: 1 } });
  try {
    await checked('create a test schema', url, () => admin.raw('CREATE SCHEMA ??', [name]));
  } finally {
    await admin.destroy();
  }
  const knex = knexFactory({
    client: 'pg',
    connection,
    searchPath: [name],
    pool: { min: 0, max: maxConnections },
  });
  const schemaUrl = new URL(url);
  schemaUrl.searchParams.set('schema', name);

  return {
    dialect,
    name,
    url: schemaUrl.toString(),
    knex,
    connection,
    async drop() {
      try {
        await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [name]);
      } finally {
        await knex.destroy();
        await closeServer();
      }
    },
  };
}

/** A fresh database in the MariaDB/MySQL at `MYSQL_URL` (default 127.0.0.1:3306, user root). */
export async function createMariaDbTestDatabase(
  url = process.env.MYSQL_URL ?? DEFAULT_MYSQL_URL,
): Promise<TestDatabase> {
  const name = uniqueName();
  const parsed = new URL(url);
  const server: Knex.MySql2ConnectionConfig = {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
  };
  const admin = knexFactory({ client: 'mysql2', connection: server, pool: { min: 0, max: 1 } });
  try {
    await checked('create a test database', url, () =>
      admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]),
    );
  } finally {
    await admin.destroy();
  }
  const connection: Knex.MySql2ConnectionConfig = { ...server, database: name };
  const knex = knexFactory({ client: 'mysql2', connection, pool: { min: 0, max: 4 } });
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;

  return {
    dialect: 'mariadb',
    name,
    url: dbUrl.toString(),
    knex,
    connection,
    async drop() {
      try {
        await knex.raw('DROP DATABASE IF EXISTS ??', [name]);
      } finally {
        await knex.destroy();
      }
    },
  };
}

const factories: Record<TestDialect, () => Promise<TestDatabase>> = {
  postgres: () => createPostgresTestDatabase(),
  mariadb: () => createMariaDbTestDatabase(),
  'embedded-postgres': () => createEmbeddedPostgresTestDatabase(),
};

/** Creates a fresh test database of the given dialect. */
export function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  return factories[dialect]();
}

/**
 * Jest helper: a fresh database for the current test file, created in `beforeAll` and dropped in
 * `afterAll`. Call at the top level (or in a `describe`) and read the result inside tests.
 *
 * @example
 * const db = useTestDatabase('postgres');
 * it('writes', async () => { await db().knex.schema.createTable('t', (t) => t.increments()); });
 */
export function useTestDatabase(dialect: TestDialect): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  }, 60_000);
  return () => {
    if (!database) throw new Error(`The ${dialect} test database is only available inside tests`);
    return database;
  };
}
