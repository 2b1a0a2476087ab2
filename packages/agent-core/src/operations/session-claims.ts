import type { CallerIdentity } from '../toolkit/caller';

/** Claims of the session token (agent-http-protocol §3.4). */
export interface SessionClaims extends CallerIdentity {
  iat?: number;
  exp?: number;
}
