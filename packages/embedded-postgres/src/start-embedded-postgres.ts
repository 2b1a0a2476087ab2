import { chmod, mkdir, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** A PostgreSQL running inside this process (PGlite), reachable over the wire protocol. */
export interface EmbeddedPostgres {
  /**
   * `postgres://postgres@127.0.0.1:<port>/postgres`, for `pg` or knex. PGlite has a single
   * session: use a pool of exactly one connection.
   */
  readonly url: string;
  readonly port: number;
  /** Stops the socket server and closes the database (flushing it to `dataDir`). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /**
   * Directory that keeps the data between runs, created when missing; it and everything in it
   * are kept the owner's alone (directories 0700, files 0600). In memory when absent.
   */
  dataDir?: string;
  /** Port on 127.0.0.1; a free one is picked when absent. */
  port?: number;
}

/**
 * Starts PGlite behind its socket server on 127.0.0.1, so that `pg` and knex talk to it as to a
 * real server. The server accepts one connection at a time; queries are serialized.
 *
 * Whatever fails while starting (the data directory cannot be made or opened, the port is taken)
 * rejects with an error that says what and where, after closing what was already opened.
 *
 * @example
 * const embedded = await startEmbeddedPostgres({ dataDir: '.canopy/db' });
 * const pool = new pg.Pool({ connectionString: embedded.url, max: 1 });
 * // on shutdown: await pool.end(); await embedded.close();
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const { dataDir } = options;
  let db: PGlite;
  try {
    if (dataDir !== undefined) {
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      await restrictToOwner(dataDir);
    }
    db = await PGlite.create(dataDir);
    if (dataDir !== undefined) await restrictToOwner(dataDir);
  } catch (error) {
    throw startFailure(
      `could not open its data directory ${dataDir ?? '(in memory)'}`,
      error,
      'Check that the directory is writable and holds a PostgreSQL data directory of PGlite.',
    );
  }
  let port: number;
  let server: PGLiteSocketServer;
  try {
    port = options.port ?? (await findFreePort());
    server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw startFailure('could not find a free port on 127.0.0.1', error);
  }
  try {
    await server.start();
  } catch (error) {
    await db.close().catch(() => undefined);
    throw startFailure(`could not listen on 127.0.0.1:${port}`, error, 'Pick another port.');
  }
  let closing: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    close() {
      closing ??= (async () => {
        await server.stop();
        await db.close();
        if (dataDir !== undefined) await restrictToOwner(dataDir);
      })();
      return closing;
    },
  };
}

function startFailure(what: string, cause: unknown, hint?: string): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `The embedded PostgreSQL did not start: ${what} (${reason}).${hint ? ` ${hint}` : ''}`,
    { cause },
  );
}

/**
 * Makes `directory` and everything in it the owner's alone (directories 0700, files 0600):
 * PGlite creates its files world-writable (0666), and the directory being 0700 keeps the files it
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
        else reject(new Error('the probe socket has no port'));
      });
    });
  });
}
