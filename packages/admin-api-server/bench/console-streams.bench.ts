/**
 * Benchmark of the Console's live streams (public API section 8): opens BENCH_STREAMS (1,000)
 * streams on one server process, then creates BENCH_EVENTS (20) notes one after another and
 * measures, for each stream, the time from the note's POST to the `note-created` event's arrival.
 * Prints the process's RSS before and after opening the streams and the latency percentiles.
 *
 *   pnpm --filter @canopy/admin-api-server exec tsx bench/console-streams.bench.ts
 *
 * Uses a fresh schema of the local PostgreSQL (dropped at the end). Not part of the test suite.
 */
import { request as httpRequest, Agent } from 'node:http';
import { createTestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  signSessionToken,
} from '../src';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const KEYS = [{ id: 'bench', secret: 'a-bench-secret-that-is-long-enough-0123456789' }];
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function call(origin: string, method: string, path: string, token: string, body?: object) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const db = await createTestDatabase('postgres');
  const server = await createAdminApiServer({
    database: { kind: 'url', url: db.url, poolSize: 10 },
    port: 0,
    host: '127.0.0.1',
    signingKeys: KEYS,
    rateLimit: { points: 1e9, durationSeconds: 60, burstPoints: 0, burstDurationSeconds: 60 },
    defaultTokenLifetimeDays: 1,
    logLevel: 'silent',
    trustProxy: false,
  });
  const origin = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const sockets: { destroy(): void }[] = [];
  try {
    const project = await createProject(server.knex, { name: 'Bench', teams: ['A'] });
    await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
    const users: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const user = await createUser(server.knex, { email: `u${i}@bench.example.com` });
      await addProjectMember(server.knex, {
        projectId: project.id,
        userId: user.id,
        permissionLevel: 'admin',
        teamNames: ['A'],
      });
      users.push(user.id);
    }
    const token = (userId: number) =>
      signSessionToken(KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 3_600_000) });
    const env = '/v1/project/Bench/environment/Production';
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const arrivals: Map<number, number>[] = [];
    let ready = 0;
    const openedAt = Date.now();
    for (let i = 0; i < STREAMS; i += 1) {
      const ticket = await call(
        origin,
        'POST',
        `${env}/live/tickets`,
        token(users[i % users.length]!),
      );
      const { url } = JSON.parse(ticket.body) as { url: string };
      const seen = new Map<number, number>();
      arrivals.push(seen);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${origin}${url}`, { agent: false }, (res) => {
          let buffer = '';
          res.on('data', (chunk: Buffer) => {
            buffer += chunk.toString();
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (block.includes('event: ready')) {
                ready += 1;
                resolve();
              }
              if (block.includes('event: note-created')) {
                const data = block
                  .split('\n')
                  .find((l) => l.startsWith('data: '))!
                  .slice(6);
                seen.set((JSON.parse(data) as { noteId: number }).noteId, performance.now());
              }
            }
          });
        });
        req.on('socket', (socket) => sockets.push(socket));
        req.on('error', reject);
        req.end();
      });
    }
    const openSeconds = (Date.now() - openedAt) / 1000;
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    const latencies: number[] = [];
    for (let n = 0; n < EVENTS; n += 1) {
      const started = performance.now();
      const created = await call(origin, 'POST', `${env}/notes`, token(users[0]!), {
        title: `Bench ${n}`,
        recordId: String(n),
        collectionName: 'orders',
        message: '<p>bench</p>',
      });
      const noteId = (JSON.parse(created.body) as { id: number }).id;
      const deadline = Date.now() + 10_000;
      while (arrivals.some((seen) => !seen.has(noteId)) && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 5));
      }
      for (const seen of arrivals) {
        const at = seen.get(noteId);
        latencies.push(at === undefined ? Number.POSITIVE_INFINITY : at - started);
      }
    }
    latencies.sort((x, y) => x - y);
    const missed = latencies.filter((l) => !Number.isFinite(l)).length;
    console.log(`streams open: ${ready} of ${STREAMS} in ${openSeconds.toFixed(1)} s`);
    console.log(
      `RSS (server and clients in one process): ${mb(rssBefore)} before, ${mb(rssAfter)} with the streams (+${mb(rssAfter - rssBefore)}, ${((rssAfter - rssBefore) / 1024 / STREAMS).toFixed(1)} KB per stream and its client)`,
    );
    console.log(
      `delivery of ${EVENTS} events x ${STREAMS} streams (POST sent -> event read): p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies[latencies.length - 1 - missed]!.toFixed(1)} ms, missed ${missed}`,
    );
  } finally {
    for (const socket of sockets) socket.destroy();
    agent.destroy();
    await server.close();
    await db.drop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
