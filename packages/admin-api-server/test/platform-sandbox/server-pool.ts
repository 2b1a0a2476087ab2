import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
import type { AdminApiServer } from '../../src';
import { startTestServer } from '../helpers/test-server';

/** One admin-api-server on its own fresh PostgreSQL schema, listening on 127.0.0.1. */
export interface PooledServer {
  readonly server: AdminApiServer;
  readonly database: TestDatabase;
  readonly port: number;
  readonly url: string;
}

// Module state: jest gives every test file its own module registry, so this is one pool per
// test file. A sandbox holds a server exclusively while it is open (it resets the schema when it
// first needs it); the next sandbox of the file reuses the server, so a file starts one server
// (two only while two sandboxes are used at once).
const idle: PooledServer[] = [];
const started: Promise<PooledServer>[] = [];
let busy = 0;
let fileEnding = false;
let shutdown: Promise<void> | undefined;

async function start(): Promise<PooledServer> {
  const database = await createTestDatabase('postgres');
  const server = await startTestServer(database);
  const port = await server.listen(0, '127.0.0.1');
  return { server, database, port, url: `http://127.0.0.1:${port}` };
}

/** A server no open sandbox uses (started if none is idle). */
export async function acquireServer(): Promise<PooledServer> {
  if (shutdown) throw new Error('The test file is ending: no new platform sandbox can start.');
  busy += 1;
  const reused = idle.pop();
  if (reused) return reused;
  const starting = start();
  started.push(starting);
  return starting;
}

/** Gives a server back; once the file's own `afterAll` hooks closed the last sandbox, stops all. */
export async function releaseServer(server: PooledServer): Promise<void> {
  busy -= 1;
  idle.push(server);
  if (fileEnding && busy === 0) await closeAll();
}

function closeAll(): Promise<void> {
  shutdown ??= (async () => {
    const servers = await Promise.allSettled(started);
    for (const result of servers) {
      if (result.status !== 'fulfilled') continue;
      await result.value.server.close();
      await result.value.database.drop();
    }
  })();
  return shutdown;
}

// The adapter is imported at the top of a test file, so these hooks come before the file's own:
// the first server starts before the file's hooks run (its start-up is not charged to them), and
// the pool is stopped after the file's `afterAll` hooks closed their sandboxes (hooks run in
// declaration order, so this one only marks the end and the last `close()` finishes the job).
if (typeof beforeAll === 'function' && typeof afterAll === 'function') {
  beforeAll(async () => {
    const starting = start();
    started.push(starting);
    idle.push(await starting);
  }, 60_000);
  afterAll(async () => {
    fileEnding = true;
    if (busy === 0) await closeAll();
    // A sandbox the file never closes must not keep the servers (and their schemas) forever.
    else setTimeout(() => void closeAll(), 10_000).unref();
  }, 60_000);
}
