import jwt from 'jsonwebtoken';

import type { AuthenticatedUser } from '../../platform/agent-services';
import { signSessionToken, verifySessionToken } from '../../protocol/auth/session-token';
import {
  issueTokens,
  signMcpAccessToken,
  verifyAccessToken,
  verifyRefreshToken,
} from './mcp-tokens';
import { OAuthFailure } from './oauth-failure';

const SECRET = 'token-test-secret';
const USER: AuthenticatedUser = {
  id: 42,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Byron',
  team: 'Support',
  role: 'Support agent',
  permissionLevel: 'user',
  renderingId: 12,
  tags: { region: 'EU' },
};
const now = () => Math.floor(Date.now() / 1000);

function platformTokens(accessSeconds: number, refreshSeconds: number, scope?: string) {
  return {
    access_token: jwt.sign({ meta: { renderingId: 12 }, ...(scope ? { scope } : {}) }, 'p', {
      expiresIn: accessSeconds,
    }),
    refresh_token: jwt.sign({}, 'p', { expiresIn: refreshSeconds }),
  };
}

const NO_LIMITS = { accessTokenSeconds: null, refreshTokenSeconds: null };

describe('MCP tokens', () => {
  it('issues an access token with the user identity that the REST session check refuses', () => {
    const issued = issueTokens(platformTokens(3600, 86_400), USER, 'c1', now(), NO_LIMITS, SECRET);
    expect(issued).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write mcp:action' });
    expect(() => verifySessionToken(issued.access_token, SECRET)).toThrow(
      'Authentication Error: this is an MCP access token, and only an agent session token is accepted here',
    );
    expect(verifyAccessToken(issued.access_token, SECRET)).toMatchObject({
      id: 42,
      renderingId: 12,
      tags: { region: 'EU' },
      typ: 'mcp-access',
      aud: 'canopy-agent-mcp',
      iss: 'canopy-agent',
      serverToken: expect.any(String),
      rendering_id: '12',
      clientId: 'c1',
    });
    expect(verifyAccessToken(issued.refresh_token, SECRET)).toBeNull();
    expect(verifyAccessToken(issued.access_token, 'other-secret')).toBeNull();
    expect(verifyRefreshToken(issued.refresh_token, SECRET)).toMatchObject({
      type: 'refresh',
      clientId: 'c1',
      scopes: ['mcp:read', 'mcp:write', 'mcp:action'],
      userId: 42,
      typ: 'mcp-refresh',
      aud: 'canopy-agent-oauth',
    });
  });

  it('narrows the scopes of a refresh to those granted at login, whatever the platform answers', () => {
    const refreshed = issueTokens(
      platformTokens(3600, 86_400, 'mcp:read mcp:write mcp:admin'),
      USER,
      'c1',
      now(),
      NO_LIMITS,
      SECRET,
      ['mcp:read'],
    );
    expect(refreshed.scope).toBe('mcp:read');
    expect(verifyAccessToken(refreshed.access_token, SECRET)?.scopes).toEqual(['mcp:read']);
    expect(verifyRefreshToken(refreshed.refresh_token, SECRET).scopes).toEqual(['mcp:read']);
  });

  it('keeps the shortest of the platform life, the session window and the cap', () => {
    const capped = issueTokens(
      platformTokens(3600, 86_400, 'mcp:read'),
      USER,
      'c1',
      now(),
      { accessTokenSeconds: 600, refreshTokenSeconds: 7200 },
      SECRET,
    );
    expect(capped.expires_in).toBe(600);
    expect(capped.scope).toBe('mcp:read');
    const refreshExp = (jwt.decode(capped.refresh_token) as { exp: number }).exp;
    expect(refreshExp - now()).toBeLessThanOrEqual(7200);
    const late = issueTokens(
      platformTokens(3600, 86_400),
      USER,
      'c1',
      now() - 7000,
      { accessTokenSeconds: null, refreshTokenSeconds: 7200 },
      SECRET,
    );
    expect(late.expires_in).toBeLessThanOrEqual(200);
    expect(() =>
      issueTokens(
        platformTokens(3600, 86_400),
        USER,
        'c1',
        now() - 8000,
        { accessTokenSeconds: null, refreshTokenSeconds: 7200 },
        SECRET,
      ),
    ).toThrow(OAuthFailure);
  });

  it('refuses platform tokens that are not JWTs with exp', () => {
    expect(() =>
      issueTokens(
        { access_token: 'opaque', refresh_token: 'opaque' },
        USER,
        'c1',
        now(),
        NO_LIMITS,
        SECRET,
      ),
    ).toThrow("The platform's access token is not a JWT with an exp claim.");
  });

  it('signs a token from session claims that the agent reads back, platform token unsealed', () => {
    const session = signSessionToken(
      {
        id: 42,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Byron',
        team: 'Support',
        role: 'Support agent',
        permissionLevel: 'user',
        renderingId: 12,
        tags: {},
      },
      SECRET,
    );
    const token = signMcpAccessToken(
      verifySessionToken(session, SECRET),
      { platformToken: 'platform-credential', scopes: ['mcp:read'], clientId: 'demo' },
      SECRET,
      60,
    );
    expect(token).not.toContain('platform-credential');
    const claims = verifyAccessToken(token, SECRET);
    expect(claims).toMatchObject({
      id: 42,
      serverToken: 'platform-credential',
      scopes: ['mcp:read'],
      clientId: 'demo',
    });
    expect(claims!.exp! - claims!.iat!).toBe(60);
    expect(verifyAccessToken(token, 'another-secret')).toBeNull();
  });
});
