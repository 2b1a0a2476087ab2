// The agent's REST interface: the router the lifecycle mounts, and the pieces tests reuse.
export { createAgentPipeline, createAgentRouter } from './create-agent-router';
export type { AgentPipeline } from './agent-pipeline';
export { signSessionToken, verifySessionToken } from '../protocol/auth/session-token';
export type { SessionClaims } from '../operations/session-claims';
export { SESSION_COOKIE } from './auth/authenticate';
