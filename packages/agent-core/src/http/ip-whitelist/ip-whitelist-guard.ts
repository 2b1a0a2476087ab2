import type { IncomingMessage } from 'node:http';

import type { IpWhitelist } from '../../platform/agent-services';
import { ForbiddenError } from '../../toolkit/errors/canopy-error';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * IP whitelist check (agent-http-protocol §4), after the session check. The client IP is the raw
 * `X-Forwarded-For` value when present (quirk 16: a multi-hop value never matches), else the
 * socket address; loopback callers without `X-Forwarded-For` are exempt.
 */
export function checkClientIp(whitelist: IpWhitelist, request: IncomingMessage): void {
  const forwarded = request.headers['x-forwarded-for'];
  const socketIp = request.socket.remoteAddress ?? '';
  if (forwarded === undefined && LOOPBACK.has(socketIp)) return;
  const ip = forwarded === undefined ? socketIp : String(forwarded);
  if (!whitelist.isAllowed(ip)) throw new ForbiddenError(`IP address rejected (${ip})`);
}
