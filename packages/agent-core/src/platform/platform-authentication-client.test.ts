import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import express from 'express';
import { exportJWK, generateKeyPair, type JWK, type KeyLike, SignJWT } from 'jose';
import type { AuthenticationError } from './authentication-error';
import { PlatformAuthenticationClient } from './platform-authentication-client';
import { PlatformHttpClient } from './platform-http-client';

const SECRET = 'f'.repeat(64);
const CLIENT_ID = 'agent-client';

let server: Server;
let base: string;
let signingKey: KeyLike;
let publicJwk: JWK;
let registrations = 0;
let discoveryStatus = 200;
let idTokenOverrides: {
  audience?: string | string[];
  issuer?: string;
  atHash?: string;
  azp?: string;
} = {};
let userInfoStatus = 200;
const seen: Record<string, unknown> = {};

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' };
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  app.get('/oidc/.well-known/openid-configuration', (request, response) => {
    seen.discoverySecret = request.get('forest-secret-key');
    if (discoveryStatus !== 200) {
      response.status(discoveryStatus).json({ errors: [{ detail: 'down' }] });
      return;
    }
    response.json({
      issuer: base,
      authorization_endpoint: `${base}/oidc/auth`,
      token_endpoint: `${base}/oidc/token`,
      registration_endpoint: `${base}/oidc/reg`,
      jwks_uri: `${base}/oidc/jwks`,
    });
  });
  app.post('/oidc/reg', (request, response) => {
    registrations += 1;
    seen.registration = { authorization: request.get('authorization'), body: request.body };
    response
      .status(201)
      .json({ client_id: CLIENT_ID, redirect_uris: ['https://app.example.com/callback'] });
  });
  app.get('/oidc/jwks', (_request, response) => {
    response.json({ keys: [publicJwk] });
  });
  app.post('/oidc/token', async (request, response) => {
    seen.token = request.body;
    if (request.body.code !== 'good-code') {
      response.status(400).json({ error: 'invalid_grant', error_description: 'code expired' });
      return;
    }
    const accessToken = 'platform-access-token';
    const digest = createHash('sha256').update(accessToken).digest();
    const idToken = await new SignJWT({
      at_hash: idTokenOverrides.atHash ?? digest.subarray(0, 16).toString('base64url'),
      ...(idTokenOverrides.azp ? { azp: idTokenOverrides.azp } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(idTokenOverrides.issuer ?? base)
      .setAudience(idTokenOverrides.audience ?? CLIENT_ID)
      .setSubject('42')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(signingKey);
    response.json({ access_token: accessToken, token_type: 'Bearer', id_token: idToken });
  });
  app.get('/liana/v2/renderings/:id/authorization', (request, response) => {
    seen.userInfo = {
      token: request.get('forest-token'),
      secret: request.get('forest-secret-key'),
      rendering: request.params.id,
    };
    if (userInfoStatus === 403) {
      response.status(403).json({ errors: [{ detail: 'Not allowed on this project' }] });
      return;
    }
    response.json({
      data: {
        type: 'users',
        id: '42',
        attributes: {
          email: 'ada@example.com',
          first_name: 'Ada',
          last_name: 'Byron',
          teams: ['Support'],
          role: 'Support agent',
          permission_level: 'user',
          tags: [{ key: 'region', value: 'EU' }],
        },
      },
    });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  registrations = 0;
  discoveryStatus = 200;
  userInfoStatus = 200;
  idTokenOverrides = {};
});

function client() {
  const logs: string[] = [];
  const http = new PlatformHttpClient({
    serverUrl: base,
    envSecret: SECRET,
    logger: (level, message) => logs.push(`${level} ${message}`),
    retries: 0,
  });
  return {
    auth: new PlatformAuthenticationClient(http, (level, message) =>
      logs.push(`${level} ${message}`),
    ),
    logs,
    http,
  };
}

const state = JSON.stringify({ renderingId: 12 });

async function rejection(promise: Promise<unknown>): Promise<AuthenticationError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect((error as Error).name).toBe('AuthenticationError');
  return error as AuthenticationError;
}

describe('PlatformAuthenticationClient', () => {
  it('discovers, registers once and builds the authorization URL', async () => {
    const { auth, http } = client();
    await auth.initialize();
    const url = new URL(await auth.getAuthorizationUrl(12));
    expect(url.origin + url.pathname).toBe(`${base}/oidc/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT_ID,
      scope: 'openid email profile',
      response_type: 'code',
      redirect_uri: 'https://app.example.com/callback',
      state: '{"renderingId":12}',
    });
    expect(url.search).toContain('scope=openid%20email%20profile');
    expect(registrations).toBe(1);
    expect(seen.discoverySecret).toBe(SECRET);
    expect(seen.registration).toEqual({
      authorization: `Bearer ${SECRET}`,
      body: { token_endpoint_auth_method: 'none' },
    });
    http.close();
  });

  it('exchanges the code, validates the id token and resolves the user', async () => {
    const { auth, http } = client();
    const user = await auth.handleCallback('good-code', state);
    expect(seen.token).toEqual({
      grant_type: 'authorization_code',
      code: 'good-code',
      client_id: CLIENT_ID,
    });
    expect(seen.userInfo).toEqual({
      token: 'platform-access-token',
      secret: SECRET,
      rendering: '12',
    });
    expect(user).toEqual({
      id: 42,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Byron',
      team: 'Support',
      role: 'Support agent',
      permissionLevel: 'user',
      renderingId: 12,
      tags: { region: 'EU' },
    });
    http.close();
  });

  it('turns OAuth errors and invalid id tokens into 401 with the state', async () => {
    const { auth, http } = client();
    const refused = await rejection(auth.handleCallback('old-code', state));
    expect(refused).toMatchObject({
      status: 401,
      error: 'invalid_grant',
      description: 'code expired',
      state,
    });

    expect(await rejection(auth.handleCallback('good-code', 'not json'))).toMatchObject({
      status: 401,
      error: 'invalid_request',
    });

    idTokenOverrides = { audience: 'someone-else' };
    const wrongAudience = await rejection(auth.handleCallback('good-code', state));
    expect(wrongAudience).toMatchObject({ status: 401, error: 'invalid_id_token' });
    expect(wrongAudience.description).toMatch(/aud/);

    // Tokens meant for other clients too, or obtained by another client, are not the agent's.
    for (const overrides of [
      { audience: [CLIENT_ID, 'another-client'] },
      { audience: [CLIENT_ID, 'another-client'], azp: 'another-client' },
      { azp: 'another-client' },
    ]) {
      idTokenOverrides = overrides;
      const foreign = await rejection(auth.handleCallback('good-code', state));
      expect(foreign).toMatchObject({ status: 401, error: 'invalid_id_token' });
      expect(foreign.description).toContain(
        `was not issued to this agent alone (client ${CLIENT_ID})`,
      );
    }
    idTokenOverrides = { audience: [CLIENT_ID], azp: CLIENT_ID };
    expect(await auth.handleCallback('good-code', state)).toMatchObject({ id: 42 });

    idTokenOverrides = { atHash: 'AAAAAAAAAAAAAAAAAAAAAA' };
    expect((await rejection(auth.handleCallback('good-code', state))).description).toContain(
      'at_hash',
    );
    http.close();
  });

  it('answers 403 with the platform detail when the user is refused', async () => {
    userInfoStatus = 403;
    const { auth, http } = client();
    expect(await rejection(auth.handleCallback('good-code', state))).toMatchObject({
      status: 403,
      error: 403,
      description: 'Not allowed on this project',
    });
    http.close();
  });

  it('logs a failed set-up at start and retries it on the first login', async () => {
    discoveryStatus = 500;
    const { auth, logs, http } = client();
    await auth.initialize();
    expect(
      logs.some((line) => line.startsWith('Warn OpenID Connect set-up with the platform failed')),
    ).toBe(true);
    discoveryStatus = 200;
    await expect(auth.getAuthorizationUrl(3)).resolves.toContain('state=');
    http.close();
  });
});
