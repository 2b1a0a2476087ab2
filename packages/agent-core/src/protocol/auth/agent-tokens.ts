import { randomUUID } from 'node:crypto';

import jwt from 'jsonwebtoken';

/** Issuer of every token the agent signs with its auth secret. */
export const AGENT_TOKEN_ISSUER = 'canopy-agent';

/**
 * The kinds of token the agent signs with its auth secret, each with its own `typ` and `aud`
 * claims. A verifier accepts only its own kind: a token of another kind, although signed with the
 * same secret, is refused.
 *
 * | kind | `typ` | `aud` | accepted by |
 * |---|---|---|---|
 * | session | `agent-session` | `canopy-agent-rest` | the REST routes, history and AI proxy routes |
 * | mcpAccess | `mcp-access` | `canopy-agent-mcp` | `POST /mcp` |
 * | mcpRefresh | `mcp-refresh` | `canopy-agent-oauth` | `POST /oauth/token` (refresh grant) |
 */
export const AGENT_TOKEN_KINDS = {
  session: { typ: 'agent-session', aud: 'canopy-agent-rest', label: 'an agent session token' },
  mcpAccess: { typ: 'mcp-access', aud: 'canopy-agent-mcp', label: 'an MCP access token' },
  mcpRefresh: { typ: 'mcp-refresh', aud: 'canopy-agent-oauth', label: 'an MCP refresh token' },
} as const;

export type AgentTokenKind = keyof typeof AGENT_TOKEN_KINDS;

/** Claims the signer sets itself: dropped from a payload before signing. */
const RESERVED = ['typ', 'aud', 'iss', 'iat', 'exp', 'nbf', 'jti'] as const;

/**
 * Signs a token of `kind` (HS256): the payload, minus any registered claim it carries, plus `typ`,
 * `aud`, `iss`, a fresh `jti`, `iat` and `exp`.
 */
export function signAgentToken(
  kind: AgentTokenKind,
  payload: Record<string, unknown>,
  authSecret: string,
  expiresInSeconds: number,
): string {
  const claims: Record<string, unknown> = { ...payload };
  for (const key of RESERVED) delete claims[key];
  const { typ, aud } = AGENT_TOKEN_KINDS[kind];
  return jwt.sign({ ...claims, typ }, authSecret, {
    algorithm: 'HS256',
    expiresIn: expiresInSeconds,
    audience: aud,
    issuer: AGENT_TOKEN_ISSUER,
    jwtid: randomUUID(),
  });
}

/** Why a token was refused: `invalid` (signature, expiry, shape) or `wrong-kind` (another kind). */
export class AgentTokenRefusal extends Error {
  constructor(
    readonly reason: 'invalid' | 'wrong-kind',
    message: string,
  ) {
    super(message);
    this.name = 'AgentTokenRefusal';
  }
}

/**
 * Verifies a token of `kind`: HS256 only (so `alg: none` and algorithm confusion are refused),
 * `exp` required and enforced, and `typ`, `aud` and `iss` those of `kind`. Returns its payload.
 *
 * @throws AgentTokenRefusal saying what the token is when it is another kind of agent token.
 */
export function verifyAgentToken(
  kind: AgentTokenKind,
  token: string,
  authSecret: string,
): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = jwt.verify(token, authSecret, { algorithms: ['HS256'] });
  } catch (error) {
    throw new AgentTokenRefusal('invalid', `the token is invalid or expired (${describe(error)})`);
  }
  if (
    typeof payload !== 'object' ||
    payload === null ||
    typeof (payload as jwt.JwtPayload).exp !== 'number'
  ) {
    throw new AgentTokenRefusal('invalid', 'the token has no expiry');
  }
  const claims = payload as Record<string, unknown>;
  const expected = AGENT_TOKEN_KINDS[kind];
  if (claims.typ === expected.typ && claims.aud === expected.aud) {
    if (claims.iss !== AGENT_TOKEN_ISSUER) {
      throw new AgentTokenRefusal('invalid', 'the token was not issued by this agent');
    }
    return claims;
  }
  const actual = Object.values(AGENT_TOKEN_KINDS).find(
    (other) => other.typ === claims.typ || other.aud === claims.aud,
  );
  throw new AgentTokenRefusal(
    'wrong-kind',
    actual
      ? `this is ${actual.label}, and only ${expected.label} is accepted here`
      : `the token has no typ and aud of ${expected.label}`,
  );
}

function describe(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TokenExpiredError' ? 'expired' : 'bad signature or format';
}
