import type { RateLimitConfig } from '../config';
import type { RateLimitDecision } from './token-rate-limiter';

/**
 * Response headers describing a decision: the `X-RateLimit-*` trio the spec names (`Reset` in
 * seconds from now) and the IETF `RateLimit` / `RateLimit-Policy` fields.
 */
export function rateLimitHeaders(
  decision: RateLimitDecision,
  config: RateLimitConfig,
): Record<string, string> {
  const policies = [`"sustained";q=${config.points};w=${config.durationSeconds}`];
  if (config.burstPoints > 0) {
    policies.push(`"burst";q=${config.burstPoints};w=${config.burstDurationSeconds}`);
  }
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': policies.join(', '),
    RateLimit: `"sustained";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
