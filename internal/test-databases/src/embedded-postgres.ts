import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createServer } from 'node:net';

/** A PostgreSQL that runs inside this process (PGlite), reachable over the wire protocol. */
export interface EmbeddedPostgres {
  /** `postgres://` URL for the plain `pg` driver; use a pool of exactly one connection. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Directory that keeps the data between runs; in memory when absent. */
  dataDir?: string;
  /** Port on 127.0.0.1; a free one is picked when absent. */
  port?: number;
}

/**
 * Starts PGlite behind its socket server so that knex and `pg` talk to it exactly as to a real
 * server. PGlite has a single session: the server accepts one connection, so clients must use a
 * pool of one (`pool: { min: 0, max: 1 }`), otherwise transactions of two clients would mix.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(options.dataDir);
  const port = options.port ?? (await findFreePort());
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  await server.start();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not find a free port on 127.0.0.1'));
      });
    });
  });
}
