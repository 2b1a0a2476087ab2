// The agent's REST interface: the router the lifecycle mounts, and the pieces tests reuse.
export { createAgentRouter } from './create-agent-router';
export { signSessionToken, verifySessionToken, type SessionClaims } from './auth/session-token';
export { SESSION_COOKIE } from './auth/authenticate';
