import type { Redis } from 'ioredis';
import type { RateLimitConfig } from '../config';
import { ApiError } from '../errors';
import { reservingLimiter, type BucketCharge } from './reservations';
import type { TokenRateLimiter } from './token-rate-limiter';

/**
 * The same two buckets as the PostgreSQL limiter (a sustained window backed by a burst window that
 * starts at its first use), as one Lua script: Redis runs it atomically, so every replica using the
 * same Redis admits exactly the limit between them. Time is Redis's own clock (`TIME`), so the
 * replicas' clocks do not matter. Returns used, burst used, burst running (0/1), outcome
 * (s sustained, b burst, r refused) and the whole seconds until the sustained window restarts.
 */
const CHARGE_SCRIPT = `
local points = tonumber(ARGV[1])
local sustained = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local duration = tonumber(ARGV[4]) * 1000
local burstDuration = tonumber(ARGV[5]) * 1000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'u', 'w', 'bu', 'be')
local used = tonumber(h[1]) or 0
local windowEnd = tonumber(h[2]) or (now + duration)
local burstUsed = tonumber(h[3]) or 0
local burstEnd = tonumber(h[4]) or now
if windowEnd <= now then
  used = 0
  windowEnd = now + duration
end
if burstEnd <= now then burstUsed = 0 end
local outcome = 'r'
if used + points <= sustained then
  used = used + points
  outcome = 's'
elseif burstUsed + points <= burst then
  burstUsed = burstUsed + points
  if burstEnd <= now then burstEnd = now + burstDuration end
  outcome = 'b'
end
redis.call('HSET', KEYS[1], 'u', used, 'w', windowEnd, 'bu', burstUsed, 'be', burstEnd)
redis.call('PEXPIRE', KEYS[1], math.max(windowEnd, burstEnd) - now + 1000)
local running = 0
if burstEnd > now then running = 1 end
local bucketEnd = windowEnd
if outcome == 'b' then bucketEnd = burstEnd end
return { used, burstUsed, running, outcome, math.ceil((windowEnd - now) / 1000),
  bucketEnd - now, tostring(bucketEnd) }
`;

/**
 * Gives back units charged to a bucket (ARGV[2]: s or b) in the window ending at ARGV[3], if that
 * window is still the current one.
 */
const REFUND_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local usedField, endField = 'u', 'w'
if ARGV[2] == 'b' then usedField, endField = 'bu', 'be' end
local h = redis.call('HMGET', KEYS[1], usedField, endField)
local windowEnd = tonumber(h[2])
if windowEnd and windowEnd == tonumber(ARGV[3]) and windowEnd > now then
  redis.call('HSET', KEYS[1], usedField, math.max((tonumber(h[1]) or 0) - tonumber(ARGV[1]), 0))
end
return 0
`;

type ChargeReply = [number, number, number, 's' | 'b' | 'r', number, number, string];

interface RedisWithCharge extends Redis {
  canopyRateLimitCharge(key: string, ...args: (string | number)[]): Promise<ChargeReply>;
  canopyRateLimitRefund(key: string, ...args: (string | number)[]): Promise<number>;
}

/**
 * The per-token limiter on Redis (`CANOPY_REDIS_URL`): one round trip of an atomic script per
 * charge instead of a PostgreSQL write (and, with much left, one per block of requests: see
 * {@link reservingLimiter}), with the same limits, headers and exactness across
 * replicas as {@link createTokenRateLimiter}. Keys are `keyPrefix` + the limiter key. When Redis
 * cannot be reached the request is answered 503, never admitted unchecked.
 */
export function createRedisRateLimiter(
  redis: Redis,
  config: RateLimitConfig,
  keyPrefix = 'canopy:rate-limit:',
): TokenRateLimiter {
  const limit = config.points + config.burstPoints;
  if (!('canopyRateLimitCharge' in redis)) {
    redis.defineCommand('canopyRateLimitCharge', { numberOfKeys: 1, lua: CHARGE_SCRIPT });
    redis.defineCommand('canopyRateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  }
  const client = redis as RedisWithCharge;

  async function charge(key: string, points: number): Promise<BucketCharge> {
    let reply: ChargeReply;
    try {
      reply = await client.canopyRateLimitCharge(
        `${keyPrefix}${key}`,
        points,
        config.points,
        Math.max(config.burstPoints, 0),
        config.durationSeconds,
        config.burstDurationSeconds,
      );
    } catch (error) {
      throw new ApiError(
        503,
        'service_unavailable',
        'The rate-limit store is unavailable; retry in a few seconds.',
        { cause: error, headers: { 'Retry-After': '5' } },
      );
    }
    const [used, burstUsed, running, outcome, reset, bucketMs, bucketTag] = reply;
    const charged = { bucket: outcome, bucketMs, bucketTag };
    const burstLeft =
      running === 1 ? Math.max(config.burstPoints - burstUsed, 0) : config.burstPoints;
    const resetSeconds = Math.min(Math.max(reset, 1), config.durationSeconds);
    if (outcome === 's') {
      return {
        ...charged,
        decision: {
          allowed: true,
          limit,
          remaining: Math.max(config.points - used, 0) + burstLeft,
          resetSeconds,
        },
      };
    }
    if (outcome === 'b') {
      return { ...charged, decision: { allowed: true, limit, remaining: burstLeft, resetSeconds } };
    }
    return { ...charged, decision: { allowed: false, limit, remaining: 0, resetSeconds } };
  }

  async function refund(key: string, points: number, bucket: 's' | 'b', tag: string) {
    await client.canopyRateLimitRefund(`${keyPrefix}${key}`, points, bucket, tag);
  }

  return reservingLimiter({ charge, refund }, config);
}
