import { useTestDatabase } from '@canopy/test-databases';
import { Redis } from 'ioredis';
import { issueApplicationToken, type AdminApiServer, type AdminApiServerConfig } from '../src';
import { createTokenRateLimiter } from '../src/rate-limit';
import { createRedisRateLimiter } from '../src/rate-limit/redis-rate-limiter';
import { apiClient } from './helpers/api-client';
import { seed, startTestServer, TEST_KEYS, tokenFor, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
const rateLimit = { points: 5, durationSeconds: 60, burstPoints: 3, burstDurationSeconds: 600 };
// Each test run has its own key prefix in the shared Redis.
const REDIS = {
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0',
  redisKeyPrefix: `canopy-test:${process.pid}:${Date.now()}:`,
};

describe.each([
  ['PostgreSQL', {} as Partial<AdminApiServerConfig>, undefined],
  ['Redis', REDIS as Partial<AdminApiServerConfig>, REDIS],
])('rate limits with the counters in %s', (_name, store, redisStore) => {
  let redis: Redis | undefined;
  let first: AdminApiServer;
  let second: AdminApiServer;
  let s: Seed;

  beforeAll(async () => {
    // Two servers with their own pools on one database: two processes as far as the limit knows.
    first = await startTestServer(db(), { rateLimit, ...store });
    second = await startTestServer(db(), { rateLimit, ...store });
    s = await seed(first);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  if (redisStore) {
    beforeAll(() => {
      redis = new Redis(redisStore.redisUrl!);
    });
    afterAll(async () => {
      const keys = await redis!.keys(`${store.redisKeyPrefix}*`);
      if (keys.length > 0) await redis!.del(...keys);
      await redis!.quit();
    });
  }

  const url = () => `/v1/project/${s.project.name}/environment/Production/activity-logs`;

  it('admits exactly points + burst of many concurrent requests across two servers', async () => {
    const token = await tokenFor(first, s.project, s.admin.id, ['all']);
    const apis = [apiClient(first.app), apiClient(second.app)];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => apis[i % 2]!.get(url(), { token })),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status === 429)).toHaveLength(22);
    for (const res of results) {
      expect(res.headers['x-ratelimit-limit']).toBe('8');
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['ratelimit-policy']).toBe('"sustained";q=5;w=60, "burst";q=3;w=600');
      expect(res.headers.ratelimit).toMatch(/^"sustained";r=\d+;t=\d+$/);
    }
    const refused = results.find((res) => res.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.body).toEqual({
      code: 'rate_limited',
      message: expect.stringContaining('retry in'),
    });
    // Each admitted request reports its own remaining count, even when the sustained bucket runs
    // out while the burst is drained concurrently: no value twice, none skipped.
    const remaining = results
      .filter((res) => res.status === 200)
      .map((res) => Number(res.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts down one by one, then refuses with Retry-After', async () => {
    const token = await tokenFor(first, s.project, s.admin.id, ['all']);
    const api = apiClient(first.app);
    const seen: string[] = [];
    for (let i = 0; i < 9; i += 1) {
      const res = await api.get(url(), { token });
      seen.push(`${res.status}:${res.headers['x-ratelimit-remaining']}`);
    }
    expect(seen).toEqual([
      '200:7',
      '200:6',
      '200:5',
      '200:4',
      '200:3',
      '200:2',
      '200:1',
      '200:0',
      '429:0',
    ]);
  });

  it('counts per token: another token of the same user has its own budget', async () => {
    const token = await tokenFor(first, s.project, s.admin.id, ['all']);
    const res = await apiClient(first.app).get(url(), { token });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('7');
  });

  it('charges one unit for a whole export', async () => {
    const token = await tokenFor(first, s.project, s.admin.id, ['all']);
    const api = apiClient(first.app);
    const exported = await api.get(`${url()}/export`, { token });
    expect(exported.status).toBe(200);
    expect(exported.headers['x-ratelimit-remaining']).toBe('7');
    expect((await api.get(url(), { token })).headers['x-ratelimit-remaining']).toBe('6');
  });

  it('restarts the sustained window when it ends, while the burst keeps its own window', async () => {
    const windows = { points: 2, durationSeconds: 1, burstPoints: 1, burstDurationSeconds: 600 };
    const limiter = redis
      ? createRedisRateLimiter(redis, windows, store.redisKeyPrefix)
      : createTokenRateLimiter(db().knex, windows);
    const key = `windows:${Date.now()}`;
    const charges = [];
    for (let i = 0; i < 4; i += 1) charges.push(await limiter.consume(key));
    expect(charges.map((c) => `${c.allowed}:${c.remaining}`)).toEqual([
      'true:2',
      'true:1',
      'true:0',
      'false:0',
    ]);
    await new Promise((wait) => setTimeout(wait, 1_100));
    const next = await limiter.consume(key);
    // A new sustained window (one of two used), and the burst point spent in the old one.
    expect(next).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 1 });
  });

  it('gives the unspent part of a reserved block back to the shared counter', async () => {
    const big = { points: 1_000, durationSeconds: 600, burstPoints: 0, burstDurationSeconds: 600 };
    const limiter = redis
      ? createRedisRateLimiter(redis, big, store.redisKeyPrefix)
      : createTokenRateLimiter(db().knex, big);
    const key = `blocks:${Date.now()}`;
    const used = async () =>
      redis
        ? Number(await redis.hget(`${store.redisKeyPrefix}${key}`, 'u'))
        : (await db().knex('rate_limit_buckets').where({ key }).first('used')).used;
    // The first charge is alone (nothing known yet); the second reserves a block.
    expect((await limiter.consume(key)).remaining).toBe(999);
    expect((await limiter.consume(key)).remaining).toBe(998);
    expect(await used()).toBeGreaterThan(2);
    await limiter.close!();
    expect(await used()).toBe(2);
  });

  describe('three servers reserving blocks of the limit', () => {
    // Much left: each server reserves blocks from the shared counter and spends them locally.
    const big = { points: 120, durationSeconds: 600, burstPoints: 30, burstDurationSeconds: 600 };
    let servers: AdminApiServer[] = [];

    beforeAll(async () => {
      servers = await Promise.all(
        [0, 1, 2].map(() => startTestServer(db(), { rateLimit: big, ...store })),
      );
    });
    afterAll(() => Promise.all(servers.map((server) => server.close())));

    /** A token of its own (a fresh budget) and its key in the shared counter. */
    const newToken = async (name: string) => {
      const { token, row } = await issueApplicationToken(first.knex, TEST_KEYS, {
        project: s.project,
        userId: s.admin.id,
        name,
        scopes: ['all'],
        expiresAt: new Date(Date.now() + 86_400_000),
        viaSso: false,
      });
      return { token, key: `token:${row.id}` };
    };
    /** The units the shared counter has handed out for `key` (sustained and burst). */
    const handedOut = async (key: string) => {
      if (redis) {
        const [used, burst] = await redis.hmget(`${store.redisKeyPrefix}${key}`, 'u', 'bu');
        return Number(used ?? 0) + Number(burst ?? 0);
      }
      const bucket = await db().knex('rate_limit_buckets').where({ key }).first();
      return Number(bucket.used) + Number(bucket.burst_used);
    };
    /**
     * What the shared counter shows once it shows `expected`, or after 10 s: units a server
     * reserved and did not spend go back when their lease ends, a second after the reservation.
     * Waited for, not slept: the refunds are writes that a loaded machine may delay.
     */
    const settled = async (key: string, expected: number) => {
      const deadline = Date.now() + 10_000;
      let shown = await handedOut(key);
      while (shown !== expected && Date.now() < deadline) {
        await new Promise((wait) => setTimeout(wait, 50));
        shown = await handedOut(key);
      }
      return shown;
    };
    /** The statuses of `count` concurrent requests, spread over the three servers in turn. */
    const wave = async (token: string, count: number) => {
      const apis = servers.map((server) => apiClient(server.app));
      const results = await Promise.all(
        Array.from({ length: count }, (_, i) => apis[i % 3]!.get(url(), { token })),
      );
      return results.map((res) => res.status);
    };
    const admittedIn = (statuses: number[]) => statuses.filter((status) => status === 200).length;

    it('admits exactly the limit across three servers reserving blocks of it', async () => {
      const { token, key } = await newToken('three servers');
      const opening = await wave(token, 240);
      expect(opening.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // Never more than the limit, and units a server reserved but did not spend go back to the
      // shared counter when their lease ends: a later wave gets exactly what is left.
      const admitted = admittedIn(opening);
      expect(admitted).toBeLessThanOrEqual(150);
      expect(await settled(key, admitted)).toBe(admitted);
      const second = await wave(token, 60);
      expect(admittedIn([...opening, ...second])).toBe(150);
    }, 60_000);

    it('gives back what each server reserved and did not spend once its lease ends', async () => {
      const apis = servers.map((server) => apiClient(server.app));
      /**
       * One request per server, each charged alone (the server knows nothing of the token yet),
       * then one more per server, together: each reserves a block of 9 (a sixteenth of the 149,
       * 148 or 147 it saw left) and spends one unit of it. Read before the leases (1 s) can end,
       * the counter holds the 6 units admitted and the 24 reserved and not spent. A round slower
       * than that (a stalled machine) says nothing either way: it is played again on a new token.
       */
      const reserveBlocks = async (attempt: number) => {
        const { token, key } = await newToken(`three leases ${attempt}`);
        for (const api of apis) expect((await api.get(url(), { token })).status).toBe(200);
        const started = Date.now();
        const reserving = await Promise.all(apis.map((api) => api.get(url(), { token })));
        expect(reserving.map((res) => res.status)).toEqual([200, 200, 200]);
        const count = await handedOut(key);
        return { token, key, count, inTime: Date.now() - started < 800 };
      };
      let round = await reserveBlocks(1);
      for (let attempt = 2; !round.inTime && attempt <= 3; attempt += 1) {
        round = await reserveBlocks(attempt);
      }
      expect(round.inTime).toBe(true);
      expect(round.count).toBe(6 + 3 * 8);
      const { token, key } = round;
      // The leases end and each server gives its 8 unspent units back: the 6 admitted are left.
      expect(await settled(key, 6)).toBe(6);
      // So later bursts get the 144 left, and no more. A server may still hold units of a burst
      // while another is refused: each burst starts once those are back, until one admits none.
      let admitted = 6;
      for (let bursts = 0; bursts < 5; bursts += 1) {
        const statuses = await wave(token, 200);
        expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
        if (admittedIn(statuses) === 0) break;
        admitted += admittedIn(statuses);
        expect(await settled(key, admitted)).toBe(admitted);
      }
      expect(admitted).toBe(150);
      expect(await handedOut(key)).toBe(150);
    }, 60_000);
  });

  if (!redisStore) {
    it('counts a burst charge whose statement began before the key was created', async () => {
      // A charge that waited on another process's first insert runs with an earlier now(): it
      // must still see the burst as not started, and start it, not leave it looking expired.
      const limiter = createTokenRateLimiter(db().knex, rateLimit);
      const key = `early-burst:${Date.now()}`;
      const trx = await db().knex.transaction();
      try {
        await trx.raw('SELECT now()'); // fixes the transaction's now() before the key exists
        await new Promise((wait) => setTimeout(wait, 20));
        for (let i = 0; i < rateLimit.points; i += 1) {
          expect((await limiter.consume(key)).allowed).toBe(true);
        }
        const early = await createTokenRateLimiter(trx, rateLimit).consume(key);
        expect(early.allowed).toBe(true);
        await trx.commit();
      } catch (error) {
        await trx.rollback();
        throw error;
      }
      const rest = [];
      for (let i = 0; i < rateLimit.burstPoints; i += 1) rest.push(await limiter.consume(key));
      // One burst point went to the early charge: two are left, then refusal.
      expect(rest.map((decision) => decision.allowed)).toEqual([true, true, false]);
    });
  }

  it('keeps the counters in the store it is given', async () => {
    const token = await tokenFor(first, s.project, s.admin.id, ['all']);
    const count = async () =>
      Number((await db().knex('rate_limit_buckets').count({ n: '*' }))[0]!.n);
    const before = await count();
    expect((await apiClient(second.app).get(url(), { token })).status).toBe(200);
    const rows = (await count()) - before;
    if (redis) {
      expect(rows).toBe(0);
      expect((await redis.keys(`${store.redisKeyPrefix}token:*`)).length).toBeGreaterThan(0);
    } else {
      expect(rows).toBe(1);
    }
  });
});

it('answers 503, never admits unchecked, when Redis cannot be reached', async () => {
  const unreachable = new Redis('redis://127.0.0.1:1/0', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  unreachable.on('error', () => undefined);
  const limiter = createRedisRateLimiter(unreachable, rateLimit, 'canopy-test-unreachable:');
  await expect(limiter.consume('token:1')).rejects.toMatchObject({
    status: 503,
    code: 'service_unavailable',
  });
  unreachable.disconnect();
});
