import jwt from 'jsonwebtoken';

import { McpOAuth } from './mcp-oauth';
import { OAuthFailure } from './oauth-failure';
import type { PlatformOAuthClient, RegisteredClient } from './platform-oauth-client';

const SECRET = 'oauth-test-secret';

function platform(overrides: Partial<Record<keyof PlatformOAuthClient, unknown>> = {}) {
  const calls: Record<string, unknown>[] = [];
  const client: RegisteredClient = {
    client_id: 'mcp-client-17',
    redirect_uris: ['https://app.claude.ai/cb', 'http://localhost:6274/cb'],
  };
  const fake = {
    environment: async () => ({ id: '314', apiEndpoint: null }),
    getClient: async (id: string) => (id === client.client_id ? client : undefined),
    exchange: async (body: Record<string, unknown>) => {
      calls.push(body);
      return {
        access_token: jwt.sign({ meta: { renderingId: 12 }, scope: 'mcp:read' }, 'p', {
          expiresIn: 3600,
        }),
        refresh_token: jwt.sign({}, 'p', { expiresIn: 86_400 }),
      };
    },
    userInfo: async (renderingId: number) => ({
      id: 42,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Byron',
      team: 'Support',
      role: 'Agent',
      permissionLevel: 'user' as const,
      renderingId,
      tags: {},
    }),
    ...overrides,
  };
  return { fake: fake as unknown as PlatformOAuthClient, calls };
}

const LIMITS = { accessTokenSeconds: null, refreshTokenSeconds: null };

describe('the OAuth façade', () => {
  it('sends the browser to the platform front end with the environment id and + joined scopes', async () => {
    const oauth = new McpOAuth(platform().fake, 'https://app.example.com', LIMITS, SECRET);
    const location = new URL(
      await oauth.authorizationRedirect({
        clientId: 'mcp-client-17',
        redirectUri: 'https://app.claude.ai/cb',
        codeChallenge: 'abc',
        state: 'xyz',
        scopes: ['mcp:read', 'mcp:write'],
        resource: new URL('https://admin-api.example.com/mcp'),
      }),
    );
    expect(location.origin + location.pathname).toBe('https://app.example.com/oauth/authorize');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      redirect_uri: 'https://app.claude.ai/cb',
      code_challenge: 'abc',
      code_challenge_method: 'S256',
      response_type: 'code',
      client_id: 'mcp-client-17',
      state: 'xyz',
      scope: 'mcp:read+mcp:write',
      resource: 'https://admin-api.example.com/mcp',
      environmentId: '314',
    });
    expect(location.search).toContain('scope=mcp%3Aread%2Bmcp%3Awrite');
  });

  it('sends the browser back with server_error when the environment cannot be read', async () => {
    const { fake } = platform({
      environment: async () => {
        throw new Error('down');
      },
    });
    const oauth = new McpOAuth(fake, 'https://app.example.com', LIMITS, SECRET);
    const location = new URL(
      await oauth.authorizationRedirect({
        clientId: 'mcp-client-17',
        redirectUri: 'https://app.claude.ai/cb',
        codeChallenge: 'abc',
        state: 'xyz',
      }),
    );
    expect(location.origin + location.pathname).toBe('https://app.claude.ai/cb');
    expect(location.searchParams.get('error')).toBe('server_error');
    expect(location.searchParams.get('state')).toBe('xyz');
  });

  it('accepts only clients whose redirect URIs are all on allowed domains', async () => {
    const { fake } = platform();
    const any = new McpOAuth(fake, 'https://app', LIMITS, SECRET);
    expect(await any.getClient('mcp-client-17')).toBeDefined();
    expect(await any.getClient('unknown')).toBeUndefined();
    const both = new McpOAuth(fake, 'https://app', LIMITS, SECRET, ['claude.ai', 'localhost']);
    expect(await both.getClient('mcp-client-17')).toBeDefined();
    const one = new McpOAuth(fake, 'https://app', LIMITS, SECRET, ['claude.ai']);
    expect(await one.getClient('mcp-client-17')).toBeUndefined();
    const lookalike = new McpOAuth(fake, 'https://app', LIMITS, SECRET, ['ude.ai', 'localhost']);
    expect(await lookalike.getClient('mcp-client-17')).toBeUndefined();
  });

  it('relays the code with the verifier, and refreshes only for the same client', async () => {
    const { fake, calls } = platform();
    const oauth = new McpOAuth(fake, 'https://app', LIMITS, SECRET);
    const tokens = await oauth.exchangeCode(
      'mcp-client-17',
      'c0de',
      'verifier',
      'https://app.claude.ai/cb',
    );
    expect(calls[0]).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: 'https://app.claude.ai/cb',
      client_id: 'mcp-client-17',
      code_verifier: 'verifier',
    });
    expect(tokens.scope).toBe('mcp:read');
    await expect(oauth.refresh('another-client', tokens.refresh_token)).rejects.toEqual(
      new OAuthFailure('invalid_grant', 'The refresh token was issued to another client.'),
    );
    const renewed = await oauth.refresh('mcp-client-17', tokens.refresh_token, ['mcp:read']);
    expect(calls[1]).toMatchObject({
      grant_type: 'refresh_token',
      client_id: 'mcp-client-17',
      scopes: ['mcp:read'],
    });
    expect(renewed.access_token).toEqual(expect.any(String));
  });

  it('needs meta.renderingId in the platform access token', async () => {
    const { fake } = platform({
      exchange: async () => ({
        access_token: jwt.sign({}, 'p', { expiresIn: 60 }),
        refresh_token: jwt.sign({}, 'p', { expiresIn: 60 }),
      }),
    });
    const oauth = new McpOAuth(fake, 'https://app', LIMITS, SECRET);
    await expect(oauth.exchangeCode('mcp-client-17', 'c', 'v', undefined)).rejects.toThrow(
      "The platform's access token carries no meta.renderingId.",
    );
  });
});
