import type { Knex } from 'knex';
import { BurstyRateLimiter, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
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
 * `burstDurationSeconds`) that admits requests once the sustained one is exhausted. Each charge is
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
  const bucket = new BurstyRateLimiter(sustained, burst);
  const limit = config.points + config.burstPoints;

  async function burstRemaining(key: string): Promise<number> {
    const state = await burst.get(key);
    return state ? Math.max(config.burstPoints - state.consumedPoints, 0) : config.burstPoints;
  }

  return {
    config,
    async consume(key, points = 1) {
      try {
        const result = await bucket.consume(key, points);
        return {
          allowed: true,
          limit,
          remaining: result.remainingPoints + (await burstRemaining(key)),
          resetSeconds: Math.max(Math.ceil(result.msBeforeNext / 1000), 0),
        };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return {
          allowed: false,
          limit,
          remaining: 0,
          resetSeconds: Math.max(Math.ceil(error.msBeforeNext / 1000), 1),
        };
      }
    },
  };
}
