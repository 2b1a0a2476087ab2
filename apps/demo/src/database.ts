import knexFactory, { type Knex } from 'knex';
import { startEmbeddedPostgres } from '@canopy/datasource-sql';

/** The demo's database: the server at `DATABASE_URL`, or an embedded PostgreSQL. */
export interface DemoDatabase {
  /** URL for the data source (with `?schema=` when the demo uses its own schema). */
  url: string;
  knex: Knex;
  description: string;
  close(): Promise<void>;
}

const DEMO_SCHEMA = 'canopy_demo';

export async function openDemoDatabase(
  databaseUrl = process.env.DATABASE_URL,
): Promise<DemoDatabase> {
  if (databaseUrl) {
    // On a real server the demo works in its own schema, recreated on every run, so that it never
    // touches the tables already there.
    const parsed = new URL(databaseUrl);
    const knex = knexFactory({ client: 'pg', connection: databaseUrl, searchPath: [DEMO_SCHEMA] });
    await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [DEMO_SCHEMA]);
    await knex.raw('CREATE SCHEMA ??', [DEMO_SCHEMA]);
    const url = new URL(databaseUrl);
    url.searchParams.set('schema', DEMO_SCHEMA);
    return {
      url: url.toString(),
      knex,
      description: `PostgreSQL at ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}, schema ${DEMO_SCHEMA}`,
      async close() {
        await knex.destroy();
      },
    };
  }

  const embedded = await startEmbeddedPostgres();
  const knex = knexFactory({ client: 'pg', connection: embedded.url, pool: { min: 0, max: 1 } });
  return {
    url: embedded.url,
    knex,
    description: `embedded PostgreSQL (PGlite, in this process) on 127.0.0.1:${embedded.port}`,
    async close() {
      await knex.destroy();
      await embedded.close();
    },
  };
}
