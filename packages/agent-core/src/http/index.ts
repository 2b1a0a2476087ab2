// The agent's REST interface: the router the lifecycle mounts, and the pieces tests reuse.
export { createAgentRouter } from './create-agent-router';
export { signSessionToken, verifySessionToken } from './auth/session-token';
export type { SessionClaims } from '../operations/session-claims';
export { SESSION_COOKIE } from './auth/authenticate';
