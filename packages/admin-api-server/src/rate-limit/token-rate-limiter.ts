import type { Knex } from 'knex';
import type { RateLimitConfig } from '../config';
import { reservingLimiter, type BucketCharge } from './reservations';

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
  /** Gives back units reserved by this process and not spent (on shutdown). */
  close?(): Promise<void>;
}

// The SET expressions read the row as it was before this charge (`b`, locked by the upsert: a
// charge that waited for another one's lock sees that one's result); RETURNING reads it after.
const SUSTAINED_BEFORE = 'CASE WHEN b.window_end <= now() THEN 0 ELSE b.used END';
const BURST_BEFORE = 'CASE WHEN b.burst_end <= now() THEN 0 ELSE b.burst_used END';
const SUSTAINED_ADMITS = `(${SUSTAINED_BEFORE}) + :points <= :sustainedPoints`;
const BURST_ADMITS = `NOT (${SUSTAINED_ADMITS}) AND (${BURST_BEFORE}) + :points <= :burstPoints`;

/**
 * One charge: a new key starts its sustained window (or, for a charge larger than it, the burst);
 * an existing key's expired windows restart, then the sustained bucket admits if it can, else the
 * burst bucket, else nothing is counted. The burst window starts at its first use; until then its
 * end is `-infinity`, not the insert's `now()`: a charge that waited on that insert has an earlier
 * `now()`, and would take an unused burst ending "later" for a running one and never start it.
 */
const CHARGE_SQL = `
INSERT INTO rate_limit_buckets AS b (key, used, window_end, burst_used, burst_end, outcome)
VALUES (
  :key,
  CASE WHEN :points <= :sustainedPoints THEN :points ELSE 0 END,
  now() + make_interval(secs => :durationSeconds),
  CASE WHEN :points > :sustainedPoints AND :points <= :burstPoints THEN :points ELSE 0 END,
  CASE WHEN :points > :sustainedPoints AND :points <= :burstPoints
    THEN now() + make_interval(secs => :burstDurationSeconds) ELSE '-infinity' END,
  CASE WHEN :points <= :sustainedPoints THEN 's' WHEN :points <= :burstPoints THEN 'b' ELSE 'r' END
)
ON CONFLICT (key) DO UPDATE SET
  used = (${SUSTAINED_BEFORE}) + CASE WHEN ${SUSTAINED_ADMITS} THEN :points ELSE 0 END,
  window_end = CASE WHEN b.window_end <= now()
    THEN now() + make_interval(secs => :durationSeconds) ELSE b.window_end END,
  burst_used = (${BURST_BEFORE}) + CASE WHEN ${BURST_ADMITS} THEN :points ELSE 0 END,
  burst_end = CASE WHEN b.burst_end <= now() AND ${BURST_ADMITS}
    THEN now() + make_interval(secs => :burstDurationSeconds) ELSE b.burst_end END,
  outcome = CASE WHEN ${SUSTAINED_ADMITS} THEN 's' WHEN ${BURST_ADMITS} THEN 'b' ELSE 'r' END
RETURNING b.used, b.burst_used, b.burst_end > now() AS burst_running, b.outcome,
  CAST(ceil(extract(epoch FROM b.window_end - now())) AS integer) AS reset_seconds,
  CAST(extract(epoch FROM CASE WHEN b.outcome = 'b' THEN b.burst_end ELSE b.window_end END - now())
    * 1000 AS double precision) AS bucket_ms,
  CAST(CASE WHEN b.outcome = 'b' THEN b.burst_end ELSE b.window_end END AS text) AS bucket_tag`.replace(
  /:(points|sustainedPoints|burstPoints|durationSeconds|burstDurationSeconds)\b/g,
  // Typed, so that PostgreSQL compares numbers (untyped parameters would compare as text).
  'CAST(:$1 AS integer)',
);

interface ChargeRow {
  used: number;
  burst_used: number;
  burst_running: boolean;
  outcome: 's' | 'b' | 'r';
  reset_seconds: number;
  bucket_ms: number;
  bucket_tag: string;
}

/** Gives back units of a window, if it is still the current one (by its end, to the microsecond). */
const REFUND_SUSTAINED_SQL = `UPDATE rate_limit_buckets SET used = greatest(used - CAST(? AS integer), 0)
WHERE key = ? AND window_end = CAST(? AS timestamptz) AND window_end > now()`;
const REFUND_BURST_SQL = `UPDATE rate_limit_buckets
SET burst_used = greatest(burst_used - CAST(? AS integer), 0)
WHERE key = ? AND burst_end = CAST(? AS timestamptz) AND burst_end > now()`;

/**
 * A token bucket in PostgreSQL: a sustained bucket (`points` per `durationSeconds`) backed by a
 * burst bucket (`burstPoints` per `burstDurationSeconds`) that admits requests once the sustained
 * one is exhausted. Both live in one row per key, and each charge is one atomic `INSERT … ON
 * CONFLICT DO UPDATE … RETURNING`, so several server processes sharing a database admit exactly
 * the limit between them. With much left, a process reserves a block of units in one charge and
 * spends it locally ({@link reservingLimiter}); near the limit, each request is charged alone and
 * reports its own remaining count.
 */
export function createTokenRateLimiter(knex: Knex, config: RateLimitConfig): TokenRateLimiter {
  const limit = config.points + config.burstPoints;

  async function charge(key: string, points: number): Promise<BucketCharge> {
    const result = await knex.raw<{ rows: ChargeRow[] }>(CHARGE_SQL, {
      key,
      points,
      sustainedPoints: config.points,
      burstPoints: Math.max(config.burstPoints, 0),
      durationSeconds: config.durationSeconds,
      burstDurationSeconds: config.burstDurationSeconds,
    });
    const row = result.rows[0]!;
    const burstLeft = row.burst_running
      ? Math.max(config.burstPoints - row.burst_used, 0)
      : config.burstPoints;
    // The window's end is stored to the millisecond: rounding may add one to a whole window.
    const resetSeconds = Math.min(Math.max(row.reset_seconds, 1), config.durationSeconds);
    const charged = { bucket: row.outcome, bucketMs: row.bucket_ms, bucketTag: row.bucket_tag };
    if (row.outcome === 's') {
      return {
        ...charged,
        decision: {
          allowed: true,
          limit,
          remaining: Math.max(config.points - row.used, 0) + burstLeft,
          resetSeconds,
        },
      };
    }
    if (row.outcome === 'b') {
      return { ...charged, decision: { allowed: true, limit, remaining: burstLeft, resetSeconds } };
    }
    return { ...charged, decision: { allowed: false, limit, remaining: 0, resetSeconds } };
  }

  async function refund(key: string, points: number, bucket: 's' | 'b', tag: string) {
    await knex.raw(bucket === 's' ? REFUND_SUSTAINED_SQL : REFUND_BURST_SQL, [points, key, tag]);
  }

  return reservingLimiter({ charge, refund }, config);
}
