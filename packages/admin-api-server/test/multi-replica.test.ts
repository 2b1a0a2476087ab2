import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
import { Redis } from 'ioredis';
import { bootstrapProject, issueApplicationToken, setUserPassword, signSessionToken } from '../src';
import { CookieJar } from '@canopy/test-browser';
import { buildCliBundle, startServeProcess } from './helpers/cli-bundle';
import { reportedActivityLog } from './helpers/agent-fixtures';
import { serverSentEvents } from './helpers/event-stream';
import { TEST_KEYS } from './helpers/test-server';
import { TOKEN_CONTEXT_TTL_MS } from '../src/auth/token-context-cache';

// Three `serve` processes (the image's command) on one PostgreSQL behind a small round-robin
// load balancer on loopback, as a deployment with three replicas runs them. They start together
// on a fresh database (one applies the migrations, the others wait).

let outDir: string;
let db: TestDatabase;
const replicas = new Map<number, ChildProcess>();
let balancer: Balancer;
let secret: string;
let userId: number;
const streams: AbortController[] = [];

const session = () =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 600_000) });

beforeAll(async () => {
  outDir = buildCliBundle();
  db = await createTestDatabase('postgres');
  // The balancer first: its URL is the replicas' public URL (logins are served on it only).
  const ports: number[] = [];
  balancer = await startBalancer(ports);
  const publicUrl = { CANOPY_PUBLIC_URL: balancer.url };
  ports.push(...(await Promise.all([serve(publicUrl), serve(publicUrl), serve(publicUrl)])));
  const bootstrap = await bootstrapProject(db.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  secret = bootstrap.secret!;
  userId = bootstrap.userId;
  // Building the bundle and starting three processes takes long on a busy machine.
}, 180_000);

afterAll(async () => {
  for (const controller of streams) controller.abort();
  for (const child of replicas.values()) child.kill('SIGKILL');
  await new Promise((done) => balancer?.server.close(done));
  balancer?.server.closeAllConnections();
  await db?.drop();
  rmSync(outDir, { recursive: true, force: true });
});

async function serve(env: Record<string, string> = {}): Promise<number> {
  const { child, port } = await startServeProcess(outDir, db.url, {
    RATE_LIMIT_POINTS: '6',
    RATE_LIMIT_DURATION_SECONDS: '300',
    RATE_LIMIT_BURST_POINTS: '4',
    RATE_LIMIT_BURST_DURATION_SECONDS: '600',
    ...env,
  });
  replicas.set(port, child);
  return port;
}

interface Balancer {
  readonly server: Server;
  readonly url: string;
}

/**
 * Round robin over the replicas; a replica refusing connections is skipped (nothing was sent to
 * it, so the request goes to the next one), and a failure after that is a 502, as a proxy that
 * does not retry non-idempotent requests answers. `X-Served-By` names the replica's port.
 */
function startBalancer(ports: number[]): Promise<Balancer> {
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    for (let attempt = 0; attempt < ports.length; attempt += 1) {
      const port = ports[next++ % ports.length]!;
      const answer = await new Promise<IncomingMessage | 'refused' | 'failed'>((resolve) => {
        const upstream = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
          resolve,
        );
        upstream.on('error', (error: NodeJS.ErrnoException) =>
          resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'failed'),
        );
        upstream.end(body);
      });
      if (answer === 'refused') continue;
      if (answer === 'failed') {
        res.writeHead(502).end();
        return;
      }
      res.writeHead(answer.statusCode!, { ...answer.headers, 'x-served-by': String(port) });
      res.flushHeaders();
      answer.pipe(res);
      // A replica dying mid-response cuts the client's connection, as a proxy's does.
      answer.on('error', () => res.destroy());
      answer.on('aborted', () => res.destroy());
      return;
    }
    res.writeHead(502).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

async function openStream() {
  const controller = new AbortController();
  streams.push(controller);
  const response = await fetch(`${balancer.url}/liana/v4/subscribe-to-events`, {
    headers: { 'forest-secret-key': secret, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const events = serverSentEvents(response.body!);
  expect((await events.next()).value).toEqual({ event: 'heartbeat', data: '{}' });
  return { events, replica: Number(response.headers.get('x-served-by')) };
}

let teamCount = 0;
/**
 * A change that sends `refresh-renderings` to the project's agents (a team renamed); resolves
 * when the replica answered (the change is committed by then), with the team's id and that time.
 */
async function renameATeam(): Promise<{ teamId: number; committedAt: number }> {
  teamCount += 1;
  const created = await fetch(`${balancer.url}/v1/project/Shop/teams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Team ${teamCount}` }),
  });
  expect(created.status).toBe(201);
  const team = (await created.json()) as { id: number };
  const renamed = await fetch(
    `${balancer.url}/v1/project/Shop/teams/${encodeURIComponent(`Team ${teamCount}`)}`,
    {
      method: 'PATCH',
      headers: { authorization: `Bearer ${session()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Renamed ${teamCount}` }),
    },
  );
  expect(renamed.status).toBe(200);
  return { teamId: team.id, committedAt: Date.now() };
}

type Stream = Awaited<ReturnType<typeof openStream>>;
async function nextRefresh(stream: Stream): Promise<{ event: string; data: string }> {
  for (;;) {
    const { value, done } = await stream.events.next();
    if (done) throw new Error('the stream ended');
    if (value.event !== 'heartbeat') return value;
  }
}

it('a change made through any replica reaches the agents of every replica on NOTIFY, not the 5 s poll', async () => {
  const opened = [await openStream(), await openStream(), await openStream()];
  expect(new Set(opened.map((stream) => stream.replica)).size).toBe(3);
  // Each replica reads the events on NOTIFY, or else every 5 s. The second change is made as soon
  // as the first reached every agent: were they polling, the last replica to deliver the first
  // would have just read, and would deliver the second only about 5 s later. Both within 2 s
  // therefore means NOTIFY, with room for a loaded machine (tens of milliseconds when idle).
  for (let round = 0; round < 2; round += 1) {
    const { teamId, committedAt } = await renameATeam();
    const received = await Promise.all(opened.map(nextRefresh));
    const latency = Date.now() - committedAt;
    for (const event of received) {
      expect(event).toEqual({
        event: 'refresh-renderings',
        data: JSON.stringify({ renderingIds: [teamId] }),
      });
    }
    expect(latency).toBeLessThan(2_000);
  }
}, 30_000);

it('sessions work whichever replica answers', async () => {
  const served = new Set<string>();
  for (let i = 0; i < 3; i += 1) {
    const answer = await fetch(`${balancer.url}/v1/project/Shop`, {
      headers: { authorization: `Bearer ${session()}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { name: string }).name).toBe('Shop');
    served.add(answer.headers.get('x-served-by')!);
  }
  expect(served.size).toBe(3);
});

async function exactLimitThrough(url: string): Promise<void> {
  const project = await db.knex('projects').where({ name: 'Shop' }).first();
  const { token } = await issueApplicationToken(db.knex, TEST_KEYS, {
    project,
    userId,
    name: 'replicas',
    scopes: ['all'],
    expiresAt: new Date(Date.now() + 600_000),
    viaSso: false,
  });
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      fetch(`${url}/v1/project/Shop/environment/Production/activity-logs`, {
        headers: { Authorization: `Bearer ${token}` },
      }).then(async (res) => {
        await res.arrayBuffer();
        return { status: res.status, replica: res.headers.get('x-served-by') };
      }),
    ),
  );
  expect(new Set(answers.map((answer) => answer.replica)).size).toBe(3);
  // 6 sustained + 4 burst, whichever replica counted them.
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
  expect(answers.filter((answer) => answer.status === 429)).toHaveLength(20);
}

it('the rate limit of a token is exact across the replicas', async () => {
  await exactLimitThrough(balancer.url);
}, 30_000);

it('the rate limit is exact across replicas keeping the counters in Redis', async () => {
  const prefix = `canopy-test-replicas:${process.pid}:${Date.now()}:`;
  const redisEnv = {
    CANOPY_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0',
    CANOPY_REDIS_KEY_PREFIX: prefix,
  };
  const ports = await Promise.all([serve(redisEnv), serve(redisEnv), serve(redisEnv)]);
  const redisBalancer = await startBalancer(ports);
  try {
    const before = Number((await db.knex('rate_limit_buckets').count({ n: '*' }))[0]!.n);
    await exactLimitThrough(redisBalancer.url);
    // The counters were in Redis: no new bucket row in PostgreSQL.
    expect(Number((await db.knex('rate_limit_buckets').count({ n: '*' }))[0]!.n)).toBe(before);
  } finally {
    await new Promise((done) => redisBalancer.server.close(done));
    redisBalancer.server.closeAllConnections();
    for (const port of ports) {
      replicas.get(port)?.kill('SIGKILL');
      replicas.delete(port);
    }
    const redis = new Redis(redisEnv.CANOPY_REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
}, 60_000);

it('a token revoked through one replica is refused by every other before its cached context expires', async () => {
  const project = await db.knex('projects').where({ name: 'Shop' }).first();
  const issue = (name: string) =>
    issueApplicationToken(db.knex, TEST_KEYS, {
      project,
      userId,
      name,
      scopes: ['all'],
      expiresAt: new Date(Date.now() + 600_000),
      viaSso: false,
    });
  const revoked = await issue('revoked through a replica');
  const bySql = await issue('revoked by direct SQL');
  const [a, b, c] = [...replicas.keys()].slice(0, 3) as [number, number, number];
  const list = (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/v1/project/Shop/environment/Production/activity-logs`, {
      headers: { authorization: `Bearer ${token}` },
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  // A change that bypasses the service is not announced: a replica that read the token's context
  // keeps it (for TOKEN_CONTEXT_TTL_MS), which shows that the replicas do cache it.
  expect(await list(b, bySql.token)).toBe(200);
  await db
    .knex('application_tokens')
    .where({ id: bySql.row.id })
    .update({ revoked_at: new Date() });
  expect(await list(b, bySql.token)).toBe(200);

  // Every replica reads the other token's context now and keeps it until at least
  // `primedAt + TOKEN_CONTEXT_TTL_MS`: a refusal before then can only come from the NOTIFY of the
  // revocation (a replica that missed it serves the cached context until it expires). That bound
  // leaves the requests below the whole TTL, where a second from the revocation was tight on a
  // loaded machine.
  const primedAt = Date.now();
  for (const port of [a, b, c]) expect(await list(port, revoked.token)).toBe(200);
  const revocation = await fetch(
    `http://127.0.0.1:${a}/v1/project/Shop/application-tokens/${revoked.row.id}`,
    { method: 'DELETE', headers: { authorization: `Bearer ${session()}` } },
  );
  expect(revocation.status).toBe(204);
  const refusedAt = async (port: number) => {
    const deadline = primedAt + 15_000;
    while ((await list(port, revoked.token)) !== 401) {
      if (Date.now() > deadline) return Infinity;
      await new Promise((wait) => setTimeout(wait, 20));
    }
    return Date.now();
  };
  const refused = await Promise.all([refusedAt(b), refusedAt(c)]);
  for (const at of refused) expect(at - primedAt).toBeLessThan(TOKEN_CONTEXT_TTL_MS);
  expect(await list(a, revoked.token)).toBe(401);
}, 30_000);

it('an OIDC authorization code issued by one replica is exchanged on another', async () => {
  const password = 'replica-password-0123';
  await setUserPassword(db.knex, userId, password);
  const servedBy: Record<string, string> = {};
  const started = Date.now();
  const step = (name: string, response: Response) => {
    servedBy[name] = response.headers.get('x-served-by')!;
    if (process.env.DEBUG_REPLICAS)
      process.stderr.write(`${name} ${response.status} ${Date.now() - started} ms\n`);
    return response;
  };
  const registered = step(
    'register',
    await fetch(`${balancer.url}/oidc/reg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'replica agent' }),
    }),
  );
  expect(registered.status).toBe(201);
  const client = (await registered.json()) as { client_id: string; redirect_uris: string[] };
  const jar = new CookieJar();
  const authorization = new URL(`${balancer.url}/oidc/auth`);
  authorization.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    response_type: 'code',
    scope: 'openid email profile',
    state: 'replica-state',
  }).toString();
  const authorize = step('authorize', await fetch(authorization, { redirect: 'manual' }));
  expect(authorize.status).toBe(303);
  jar.store(authorize);
  const loginUrl = new URL(authorize.headers.get('location')!, balancer.url);
  const submitted = step(
    'login',
    await fetch(`${loginUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ada@example.com', password }).toString(),
    }),
  );
  expect(submitted.status).toBe(303);
  jar.store(submitted);
  const resumed = step(
    'issue code',
    await fetch(new URL(submitted.headers.get('location')!, balancer.url), {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    }),
  );
  const callback = new URL(resumed.headers.get('location')!, balancer.url);
  expect(callback.pathname).toBe('/oidc/callback');
  expect(callback.searchParams.get('state')).toBe('replica-state');
  const code = callback.searchParams.get('code')!;
  const exchange = () =>
    fetch(`${balancer.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0]!,
      }).toString(),
    });
  const exchanged = step('exchange code', await exchange());
  expect(exchanged.status).toBe(200);
  const tokens = (await exchanged.json()) as { access_token: string; id_token: string };
  expect(tokens.id_token).toEqual(expect.any(String));
  // The code was issued and exchanged by different replicas (the balancer rotates).
  expect(servedBy['exchange code']).not.toBe(servedBy['issue code']);
  // Every replica knows the access token, and a code is single use on all of them.
  const seen = new Set<string>();
  for (let i = 0; i < 3; i += 1) {
    const me = await fetch(`${balancer.url}/oidc/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('ada@example.com');
    seen.add(me.headers.get('x-served-by')!);
  }
  expect(seen.size).toBe(3);
  const replay = await exchange();
  expect(replay.status).toBe(400);
  expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
  expect(new Set(Object.values(servedBy)).size).toBe(3);
  // Each replica loads oidc-provider and its keys on first use: slow on a busy machine.
}, 120_000);

it('a replica killed with SIGKILL mid-stream loses no ingested log, and its agents reconnect', async () => {
  const opened = [await openStream(), await openStream(), await openStream()];
  const victim = opened[0]!.replica;
  /** An agent's batch upload: retried until a replica acknowledges it (ids make it idempotent). */
  async function upload(batch: number): Promise<number> {
    const body = JSON.stringify({
      logs: Array.from({ length: 20 }, (_, i) => reportedActivityLog(`kill-${batch}-${i}`, userId)),
    });
    for (let attempt = 1; ; attempt += 1) {
      const answer = await fetch(`${balancer.url}/liana/v1/activity-logs`, {
        method: 'POST',
        headers: { 'forest-secret-key': secret, 'content-type': 'application/json' },
        body,
      }).catch(() => undefined);
      if (answer?.status === 200) return attempt;
      await answer?.arrayBuffer();
      if (attempt > 20) throw new Error(`batch ${batch} was never acknowledged`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  const uploads = Array.from({ length: 30 }, (_, batch) => upload(batch));
  await new Promise((wait) => setTimeout(wait, 50));
  replicas.get(victim)!.kill('SIGKILL');
  await Promise.all(uploads);

  const stored = await db
    .knex('ingested_activity_logs')
    .where('external_id', 'like', 'kill-%')
    .count({ n: '*' });
  expect(stored).toEqual([{ n: '600' }]);

  // The agent of the killed replica sees its stream end, and reconnects through the balancer.
  await expect(nextRefresh(opened[0]!)).rejects.toThrow();
  const reconnected = await openStream();
  expect(reconnected.replica).not.toBe(victim);
  const { teamId } = await renameATeam();
  for (const stream of [reconnected, opened[1]!, opened[2]!]) {
    expect(await nextRefresh(stream)).toEqual({
      event: 'refresh-renderings',
      data: JSON.stringify({ renderingIds: [teamId] }),
    });
  }
}, 60_000);
