import type { Knex } from 'knex';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config';

/** The outcome of charging one request to a key. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Requests a full window admits: sustained points plus burst points. */
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the sustained window starts again (and, when refused, until a retry helps). */
  readonly resetSeconds: number;
}

/** Charges requests to keys (one per token); shared by every process using the same database. */
export interface TokenRateLimiter {
  readonly config: RateLimitConfig;
  consume(key: string, points?: number): Promise<RateLimitDecision>;
}

/**
 * A token bucket built from rate-limiter-flexible's PostgreSQL store: a sustained limiter
 * (`points` per `durationSeconds`) backed by a burst limiter (`burstPoints` per
 * `burstDurationSeconds`) that admits requests once the sustained one is exhausted (the scheme of
 * the library's BurstyRateLimiter, written out so that the burst's remaining count is reported). Each charge is
 * one atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING` on the `rate_limits` table, so several
 * server processes sharing a database admit exactly the limit between them.
 */
export function createTokenRateLimiter(knex: Knex, config: RateLimitConfig): TokenRateLimiter {
  const common = {
    storeClient: knex,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
  };
  const sustained = new RateLimiterPostgres({
    ...common,
    keyPrefix: 'rate',
    points: config.points,
    duration: config.durationSeconds,
  });
  const burst = new RateLimiterPostgres({
    ...common,
    keyPrefix: 'burst',
    points: Math.max(config.burstPoints, 0),
    duration: config.burstDurationSeconds,
  });
  const limit = config.points + config.burstPoints;

  async function burstRemaining(key: string): Promise<number> {
    if (config.burstPoints === 0) return 0;
    const state = await burst.get(key);
    return state ? Math.max(config.burstPoints - state.consumedPoints, 0) : config.burstPoints;
  }

  /** Sustained first; once it is exhausted, the burst bucket (as BurstyRateLimiter does). */
  async function charge(key: string, points: number): Promise<RateLimitDecision> {
    let sustainedRefusal: RateLimiterRes;
    try {
      const admitted = await sustained.consume(key, points);
      return {
        allowed: true,
        limit,
        remaining: admitted.remainingPoints + (await burstRemaining(key)),
        resetSeconds: Math.ceil(admitted.msBeforeNext / 1000),
      };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      sustainedRefusal = error;
    }
    const resetSeconds = Math.max(Math.ceil(sustainedRefusal.msBeforeNext / 1000), 1);
    if (config.burstPoints === 0) return { allowed: false, limit, remaining: 0, resetSeconds };
    try {
      const admitted = await burst.consume(key, points);
      return { allowed: true, limit, remaining: admitted.remainingPoints, resetSeconds };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { allowed: false, limit, remaining: 0, resetSeconds };
    }
  }

  return { config, consume: (key, points = 1) => charge(key, points) };
}
