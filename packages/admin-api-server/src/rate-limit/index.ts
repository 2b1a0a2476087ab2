import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { rateLimitHeaders } from './rate-limit-headers';
import type { TokenRateLimiter } from './token-rate-limiter';

export {
  createTokenRateLimiter,
  type TokenRateLimiter,
  type RateLimitDecision,
} from './token-rate-limiter';
export { rateLimitHeaders } from './rate-limit-headers';

/**
 * Charges one request to `key`, sets the headers, and throws a 429 when refused. `res` is any
 * response with `setHeader`.
 */
export async function chargeRequest(
  limiter: TokenRateLimiter,
  res: Pick<ServerResponse, 'setHeader'>,
  key: string,
): Promise<void> {
  const decision = await limiter.consume(key);
  const headers = rateLimitHeaders(decision, limiter.config);
  for (const name in headers) res.setHeader(name, headers[name]!);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests for this token; retry in ${decision.resetSeconds} second(s).`,
      { headers: { ...headers, 'Retry-After': String(decision.resetSeconds) } },
    );
  }
}
