import type { RateLimitConfig } from '../config';
import type { RateLimitDecision, TokenRateLimiter } from './token-rate-limiter';

/** What a shared store answers to a charge of `points` to a key, all or nothing. */
export interface BucketCharge {
  readonly decision: RateLimitDecision;
  /** The bucket that admitted the charge: `s` sustained, `b` burst, `r` none (refused). */
  readonly bucket: 's' | 'b' | 'r';
  /** Milliseconds from the charge until that bucket's window ends (by the store's clock). */
  readonly bucketMs: number;
  /** That bucket's window as the store names it: a refund applies only to the same window. */
  readonly bucketTag: string;
}

/** The shared counters (PostgreSQL or Redis) under a {@link reservingLimiter}. */
export interface BucketStore {
  charge(key: string, points: number): Promise<BucketCharge>;
  /** Gives back `points` charged to `bucket` in window `tag`; nothing if that window ended. */
  refund(key: string, points: number, bucket: 's' | 'b', tag: string): Promise<void>;
}

/**
 * A reservation is at most this share of what the key had left when last charged: with much
 * left, a process takes a block and spends it locally; near the limit (fewer than
 * `RESERVE_SHARE * 2` units left), each request is charged alone, as without reservations.
 */
const RESERVE_SHARE = 16;
/** The largest block a process reserves at once. */
const MAX_BLOCK = 100;
/** Keys whose last known count is kept (the oldest idle ones are forgotten first). */
const MAX_KEYS = 10_000;
/** Unspent units go back to the shared counter this long after they were reserved. */
const LEASE_MS = 1_000;

interface Lease {
  units: number;
  readonly bucket: 's' | 'b';
  readonly tag: string;
  /** Local time after which the units are returned (never after their window ends). */
  readonly until: number;
  /** Local time at which the sustained window restarts, for `resetSeconds`. */
  readonly resetAt: number;
  /** What the key had left in the shared store right after the reservation. */
  readonly remainingAfter: number;
  readonly timer: NodeJS.Timeout;
}

interface KeyState {
  lease?: Lease;
  /** What the key had left in the shared store after its last charge here. */
  lastRemaining?: number;
  /** A block reservation under way: other requests for the key wait for it. */
  reserving?: Promise<void>;
}

/**
 * Per-token limits charged in blocks: a process reserves a block of units from the shared
 * counter (one atomic charge of N points) and spends it on its next requests without a round
 * trip. The shared counter always holds every unit handed out, so all the processes together
 * never admit more than the limit; units not spent within {@link LEASE_MS} (or before their
 * window ends) are given back, so none is lost either: over a window, exactly the limit is
 * admitted. Blocks are a small share of what is left ({@link RESERVE_SHARE}), so near the limit
 * every request is charged alone and a block stranded in an idle process is small and brief.
 * `remaining` in a decision is the shared count at the last reservation minus this process's
 * spending since: other processes' spending shows at the next reservation.
 */
export function reservingLimiter(store: BucketStore, config: RateLimitConfig): TokenRateLimiter {
  const keys = new Map<string, KeyState>();

  /** Drops the oldest key without units in hand (it starts again with a single charge). */
  function forgetOldest(): void {
    for (const [key, state] of keys) {
      if (!state.lease?.units && !state.reserving) {
        if (state.lease) clearTimeout(state.lease.timer);
        keys.delete(key);
        return;
      }
    }
  }

  function release(key: string, state: KeyState, lease: Lease): Promise<void> {
    if (state.lease === lease) state.lease = undefined;
    clearTimeout(lease.timer);
    const units = lease.units;
    lease.units = 0;
    if (units === 0) return Promise.resolve();
    // Best effort: a refund that fails leaves those units spent until their window ends.
    return store.refund(key, units, lease.bucket, lease.tag).catch(() => undefined);
  }

  function spend(lease: Lease, now: number): RateLimitDecision {
    lease.units -= 1;
    return {
      allowed: true,
      limit: config.points + config.burstPoints,
      remaining: lease.remainingAfter + lease.units,
      resetSeconds: Math.min(
        Math.max(Math.ceil((lease.resetAt - now) / 1000), 1),
        config.durationSeconds,
      ),
    };
  }

  async function reserve(key: string, state: KeyState, block: number): Promise<RateLimitDecision> {
    const started = Date.now();
    let charged = await store.charge(key, block);
    if (charged.bucket === 'r' && block > 1) {
      // Not a whole block left: charge this request alone.
      block = 1;
      charged = await store.charge(key, 1);
    }
    const { decision } = charged;
    state.lastRemaining = decision.remaining;
    if (!decision.allowed || block === 1 || charged.bucket === 'r') return decision;
    // The store measured the window from a moment after `started`: ending it from `started`
    // returns the units a little early, never late.
    const until = started + Math.min(LEASE_MS, charged.bucketMs);
    const lease: Lease = {
      units: block - 1,
      bucket: charged.bucket,
      tag: charged.bucketTag,
      until,
      resetAt: started + decision.resetSeconds * 1000,
      remainingAfter: decision.remaining,
      timer: setTimeout(() => void release(key, state, lease), Math.max(until - Date.now(), 0)),
    };
    lease.timer.unref();
    if (state.lease) void release(key, state, state.lease);
    state.lease = lease;
    return { ...decision, remaining: decision.remaining + lease.units };
  }

  async function consume(key: string, points = 1): Promise<RateLimitDecision> {
    // A charge of several points (none today) bypasses the reservations.
    if (points !== 1) return (await store.charge(key, points)).decision;
    for (;;) {
      let state = keys.get(key);
      if (!state) {
        if (keys.size >= MAX_KEYS) forgetOldest();
        state = {};
        keys.set(key, state);
      }
      const now = Date.now();
      const lease = state.lease;
      if (lease && lease.units > 0 && lease.until > now) return spend(lease, now);
      if (lease) void release(key, state, lease);
      if (state.reserving) {
        await state.reserving;
        continue;
      }
      const block = Math.min(
        Math.max(Math.floor((state.lastRemaining ?? 0) / RESERVE_SHARE), 1),
        MAX_BLOCK,
      );
      // Alone near the limit: concurrent requests are charged side by side, as without blocks.
      if (block === 1) return reserve(key, state, 1);
      const decided = reserve(key, state, block);
      const reserving = decided.then(
        () => undefined,
        () => undefined,
      );
      state.reserving = reserving;
      try {
        return await decided;
      } finally {
        if (state.reserving === reserving) state.reserving = undefined;
      }
    }
  }

  return {
    config,
    consume,
    async close() {
      const refunds = [...keys].map(([key, state]) =>
        state.lease ? release(key, state, state.lease) : undefined,
      );
      keys.clear();
      await Promise.all(refunds);
    },
  };
}
