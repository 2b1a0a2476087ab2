import type { RateLimitConfig } from '../src/config';
import { reservingLimiter, type BucketStore } from '../src/rate-limit/reservations';

/** A shared counter in memory with a sustained window only, counting the charges it serves. */
function memoryStore(config: RateLimitConfig) {
  const state = { used: 0, charges: 0, refunds: 0 };
  const store: BucketStore = {
    async charge(_key, points) {
      state.charges += 1;
      const allowed = state.used + points <= config.points;
      if (allowed) state.used += points;
      return {
        decision: {
          allowed,
          limit: config.points,
          remaining: config.points - state.used,
          resetSeconds: config.durationSeconds,
        },
        bucket: allowed ? 's' : 'r',
        bucketMs: config.durationSeconds * 1000,
        bucketTag: 'w1',
      };
    },
    async refund(_key, points, bucket, tag) {
      expect([bucket, tag]).toEqual(['s', 'w1']);
      state.refunds += 1;
      state.used -= points;
    },
  };
  return { store, state };
}

const config = { points: 10_000, durationSeconds: 600, burstPoints: 0, burstDurationSeconds: 1 };

it('charges the shared counter once per block, and counts down one by one', async () => {
  const { store, state } = memoryStore(config);
  const limiter = reservingLimiter(store, config);
  const remaining: number[] = [];
  for (let i = 0; i < 1_000; i += 1) {
    const decision = await limiter.consume('token:1');
    expect(decision.allowed).toBe(true);
    remaining.push(decision.remaining);
  }
  expect(state.charges).toBeLessThan(20);
  // Alone on the counter, this process sees every unit it spends.
  expect(remaining).toEqual(Array.from({ length: 1_000 }, (_, i) => config.points - 1 - i));
  // Units reserved and not spent go back on close.
  expect(state.used).toBeGreaterThan(1_000);
  await limiter.close!();
  expect(state.used).toBe(1_000);
});

it('concurrent requests wait for one reservation instead of each making one', async () => {
  const { store, state } = memoryStore(config);
  const limiter = reservingLimiter(store, config);
  await limiter.consume('token:1');
  const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('token:1')));
  expect(decisions.every((decision) => decision.allowed)).toBe(true);
  expect(state.charges).toBeLessThanOrEqual(3);
  await limiter.close!();
  expect(state.used).toBe(51);
});

it('near the limit charges each request alone, and never admits more than the limit', async () => {
  const small = { ...config, points: 40 };
  const { store, state } = memoryStore(small);
  const limiters = [reservingLimiter(store, small), reservingLimiter(store, small)];
  const decisions = await Promise.all(
    Array.from({ length: 100 }, (_, i) => limiters[i % 2]!.consume('token:1')),
  );
  const admitted = decisions.filter((decision) => decision.allowed).length;
  expect(admitted).toBeLessThanOrEqual(40);
  await Promise.all(limiters.map((limiter) => limiter.close!()));
  // Whatever was reserved and not spent went back: what is used is what was admitted.
  expect(state.used).toBe(admitted);
  const more = await Promise.all(
    Array.from({ length: 60 }, (_, i) => limiters[i % 2]!.consume('token:1')),
  );
  expect(admitted + more.filter((decision) => decision.allowed).length).toBe(40);
});

it('gives unspent units back once their lease ends', async () => {
  const { store, state } = memoryStore(config);
  const limiter = reservingLimiter(store, config);
  await limiter.consume('token:1');
  await limiter.consume('token:1');
  expect(state.used).toBeGreaterThan(2);
  await new Promise((wait) => setTimeout(wait, 1_200));
  expect(state.refunds).toBe(1);
  expect(state.used).toBe(2);
});
