import type { Response } from 'express';
import { ApiError } from '../errors';
import { rateLimitHeaders } from './rate-limit-headers';
import type { TokenRateLimiter } from './token-rate-limiter';

export {
  createTokenRateLimiter,
  type TokenRateLimiter,
  type RateLimitDecision,
} from './token-rate-limiter';
export { rateLimitHeaders } from './rate-limit-headers';

/** Charges one request to `key`, sets the headers, and throws a 429 when refused. */
export async function chargeRequest(
  limiter: TokenRateLimiter,
  res: Response,
  key: string,
): Promise<void> {
  const decision = await limiter.consume(key);
  const headers = rateLimitHeaders(decision, limiter.config);
  res.set(headers);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests for this token; retry in ${decision.resetSeconds} second(s).`,
      { headers: { ...headers, 'Retry-After': String(decision.resetSeconds) } },
    );
  }
}
