import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

// Starting PGlite (a WebAssembly PostgreSQL) takes a few seconds on a busy machine.
jest.setTimeout(120_000);

describe('startEmbeddedPostgres', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'canopy-embedded-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers SQL on 127.0.0.1 from a data directory that is the owner’s alone', async () => {
    const dataDir = join(dir, 'db');
    const embedded = await startEmbeddedPostgres({ dataDir });
    try {
      expect(embedded.url).toBe(`postgres://postgres@127.0.0.1:${embedded.port}/postgres`);
      expect(await query(embedded.url, 'SELECT 41 + 1 AS answer')).toEqual([{ answer: 42 }]);
    } finally {
      await embedded.close();
    }
    await embedded.close(); // a second close is a no-op
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('refuses a port that is taken with an error naming it, and can start again after', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startEmbeddedPostgres({ port })).rejects.toThrow(
        new RegExp(
          `did not start: could not listen on 127\\.0\\.0\\.1:${port} .*Pick another port`,
        ),
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const embedded = await startEmbeddedPostgres({ port });
    try {
      expect(await query(embedded.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await embedded.close();
    }
  });

  it('refuses a data directory it cannot use with an error naming it', async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    await expect(startEmbeddedPostgres({ dataDir: file })).rejects.toThrow(
      `The embedded PostgreSQL did not start: could not open its data directory ${file}`,
    );
  });
});
