import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createServer } from 'node:net';

/** A PostgreSQL running inside this process (PGlite), reachable over the wire protocol. */
export interface EmbeddedPostgres {
  /**
   * `postgres://` URL for {@link createSqlDataSource} or `pg`. It carries `embedded=true`, which
   * makes the data source use a pool of exactly one connection.
   */
  readonly url: string;
  readonly port: number;
  /** Stops the socket server and closes the database (flushing it to `dataDir`). */
  close(): Promise<void>;
}

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** Directory that keeps the data between runs; in memory when absent. */
  dataDir?: string;
  /** Port on 127.0.0.1; a free one is picked when absent. */
  port?: number;
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not find a free port on 127.0.0.1.'));
      });
    });
  });
}

/**
 * Starts PGlite behind its socket server, so that knex and `pg` talk to it as to a real server:
 * Canopy's zero-install default database. PGlite has a single session, so the server accepts one
 * connection at a time and every client must use a pool of one; queries are serialized.
 *
 * @example
 * const embedded = await startEmbeddedPostgres({ dataDir: '.canopy/db' });
 * agent.addDataSource(createSqlDataSource(embedded.url));
 * // on shutdown: await agent.stop(); await embedded.close();
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(options.dataDir);
  const port = options.port ?? (await findFreePort());
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw new Error(
      `Could not start the embedded PostgreSQL on 127.0.0.1:${port}: ` +
        `${error instanceof Error ? error.message : String(error)}. Pick another port.`,
      { cause: error },
    );
  }
  let closed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?embedded=true`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      await server.stop();
      await db.close();
    },
  };
}
