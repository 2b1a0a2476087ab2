import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** A PGlite database served over the PostgreSQL wire protocol on a loopback port. */
export interface EmbeddedPostgres {
  /** URL for the `pg` driver; PGlite has one session, so use a pool of exactly one. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts PostgreSQL inside this process (PGlite, WASM) with its data under `dataDir`, so the
 * server runs with nothing installed. Single connection: a default for trying things out, not a
 * production store.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await restrictToOwner(dataDir);
  const db = await PGlite.create(dataDir);
  await restrictToOwner(dataDir);
  const port = await findFreePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async close() {
      await server.stop();
      await db.close();
      await restrictToOwner(dataDir);
    },
  };
}

/**
 * Makes the data directory and everything in it the owner's alone (directories 0700, files 0600):
 * PGlite creates its files world-writable (0666). The directory itself being 0700 keeps files it
 * creates while running out of reach of other users too.
 */
export async function restrictToOwner(directory: string): Promise<void> {
  await chmod(directory, 0o700);
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) await restrictToOwner(path);
    else if (entry.isFile()) await chmod(path, 0o600);
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('No free port on 127.0.0.1 for the embedded PostgreSQL.'));
      });
    });
  });
}
