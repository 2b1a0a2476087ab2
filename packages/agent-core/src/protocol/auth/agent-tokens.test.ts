import jwt from 'jsonwebtoken';

import { checkAccessToken, issueTokens, verifyRefreshToken } from '../../mcp/oauth/mcp-tokens';
import { TEST_CLAIMS } from '../../http/test-fixtures/shop-services';
import { signSessionToken, verifySessionToken } from './session-token';

const SECRET = 'agent-token-matrix-secret';

/** Every token the agent issues, plus the token format agents signed before token types. */
function tokens(): Record<string, string> {
  const platform = {
    access_token: jwt.sign({ meta: { renderingId: 1 } }, 'platform', { expiresIn: 3600 }),
    refresh_token: jwt.sign({}, 'platform', { expiresIn: 86_400 }),
    scope: 'mcp:read',
  };
  const limits = { accessTokenSeconds: null, refreshTokenSeconds: null };
  const mcp = issueTokens(platform, TEST_CLAIMS, 'client-1', Date.now() / 1000, limits, SECRET);
  return {
    session: signSessionToken(TEST_CLAIMS, SECRET),
    mcpAccess: mcp.access_token,
    mcpRefresh: mcp.refresh_token,
    // The same identity signed with the same secret, but without typ/aud/iss.
    untyped: jwt.sign({ ...TEST_CLAIMS }, SECRET, { algorithm: 'HS256', expiresIn: 3600 }),
  };
}

/** Whether `verify` returns rather than throws. */
const passes = (verify: () => unknown): boolean => {
  try {
    verify();
    return true;
  } catch {
    return false;
  }
};

/** Each verifier of the agent: `true` when it accepts the token. */
const VERIFIERS: Record<string, (token: string) => boolean> = {
  rest: (token) => passes(() => verifySessionToken(token, SECRET)),
  mcp: (token) => typeof checkAccessToken(token, SECRET) !== 'string',
  oauthRefresh: (token) => passes(() => verifyRefreshToken(token, SECRET)),
};

const ACCEPTS: Record<string, string> = {
  rest: 'session',
  mcp: 'mcpAccess',
  oauthRefresh: 'mcpRefresh',
};

describe('agent token types', () => {
  const issued = tokens();
  const cases = Object.keys(VERIFIERS).flatMap((verifier) =>
    Object.keys(issued).map((token) => [verifier, token] as const),
  );

  it.each(cases)('the %s verifier and a %s token', (verifier, token) => {
    expect(VERIFIERS[verifier]!(issued[token]!)).toBe(ACCEPTS[verifier] === token);
  });

  it('every issued token carries its type, audience and issuer', () => {
    expect(jwt.decode(issued.session!)).toMatchObject({
      typ: 'agent-session',
      aud: 'canopy-agent-rest',
      iss: 'canopy-agent',
      jti: expect.any(String),
      // The claims front ends read stay.
      id: 1,
      renderingId: 1,
      email: 'ada@shop.test',
      tags: { region: 'EU' },
    });
    expect(jwt.decode(issued.mcpAccess!)).toMatchObject({
      typ: 'mcp-access',
      aud: 'canopy-agent-mcp',
      iss: 'canopy-agent',
    });
    expect(jwt.decode(issued.mcpRefresh!)).toMatchObject({
      typ: 'mcp-refresh',
      aud: 'canopy-agent-oauth',
      iss: 'canopy-agent',
    });
  });

  it('says which kind of token was sent where another is expected', () => {
    expect(() => verifySessionToken(issued.mcpAccess!, SECRET)).toThrow(
      'Authentication Error: this is an MCP access token, and only an agent session token is accepted here',
    );
    expect(checkAccessToken(issued.session!, SECRET)).toBe(
      'Not an MCP access token: this is an agent session token, and only an MCP access token is accepted here; log in through the MCP OAuth flow to get one.',
    );
    expect(() => verifyRefreshToken(issued.mcpAccess!, SECRET)).toThrow(
      'Not a refresh token: this is an MCP access token, and only an MCP refresh token is accepted here.',
    );
  });

  it('a session token cannot be turned into another kind by its payload', () => {
    // Claims that the signer sets are replaced, whatever the payload says.
    const forged = signSessionToken(
      { ...TEST_CLAIMS, typ: 'mcp-access', aud: 'canopy-agent-mcp' } as typeof TEST_CLAIMS,
      SECRET,
    );
    expect(jwt.decode(forged)).toMatchObject({ typ: 'agent-session', aud: 'canopy-agent-rest' });
    expect(VERIFIERS.mcp!(forged)).toBe(false);
  });
});
