import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { CookieJar } from '@canopy/test-browser';
import { useTestDatabase } from '@canopy/test-databases';
import { bootstrapProject, setUserPassword, type AdminApiServer } from '../src';
import { followToCallback, redeemConsoleCode } from './helpers/oidc-login';
import { startTestServer } from './helpers/test-server';

// Issue 30, findings 1 and 2: the OIDC issuer and redirect URIs come from the public URL, never
// from the Host header; a Console authorization code is redeemed by the Console only.

const db = useTestDatabase('postgres');
const PASSWORD = 'ada-own-password-123';
let server: AdminApiServer;
let port: number;
let url: string;
let shopSecret: string;

beforeAll(async () => {
  server = await startTestServer(db());
  port = await server.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${port}`;
  const shop = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  shopSecret = shop.secret!;
  await setUserPassword(server.knex, shop.userId, PASSWORD);
});

afterAll(async () => {
  await server.close();
});

/** A GET with a Host header of our choice (fetch does not let one set it). */
function getWithHost(
  target: string,
  host: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      new URL(target, url),
      { method: 'GET', headers: { host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { text };
          }
          resolve({ status: response.statusCode!, body });
        });
      },
    );
    call.on('error', reject);
    call.end();
  });
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('finding 1: the Host header decides nothing', () => {
  it('serves the issuer of the listening address by default, and refuses other hosts', async () => {
    const own = await getWithHost('/oidc/.well-known/openid-configuration', `127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(own.body.issuer).toBe(`${url}/oidc`);

    const evil = await getWithHost('/oidc/.well-known/openid-configuration', 'evil.example');
    expect(evil.status).toBe(421);
    expect(evil.body).toMatchObject({ error: 'misdirected_request' });
    expect(JSON.stringify(evil.body)).not.toContain('evil.example/oidc');
  });

  it('refuses the console login toward a made-up host, and a redirect URI of another host', async () => {
    const { challenge } = pkce();
    const query = (redirect: string) =>
      `/oidc/auth?${new URLSearchParams({
        client_id: 'canopy-console',
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString()}`;
    const viaEvil = await getWithHost(query('http://evil.example/oidc/callback'), 'evil.example');
    expect(viaEvil.status).toBe(421);
    const foreignRedirect = await getWithHost(
      query('http://evil.example/oidc/callback'),
      `127.0.0.1:${port}`,
    );
    expect(foreignRedirect.status).toBe(400);
    expect(foreignRedirect.body).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('keeps no state per Host: 400 made-up hosts are refused and memory stays flat', async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const answers: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          getWithHost('/oidc/.well-known/openid-configuration', `h${round}-${index}.example`),
        ),
      );
      answers.push(...batch.map((answer) => answer.status));
    }
    gc?.();
    const grown = process.memoryUsage().heapUsed - before;
    expect(new Set(answers)).toEqual(new Set([421]));
    // A provider per Host cost about 135 kB each (+54 MB for 400 hosts).
    expect(grown).toBeLessThan(20 * 1024 * 1024);
  });

  it('takes CANOPY_PUBLIC_URL as the issuer, and refuses the listening address then', async () => {
    const configured = await startTestServer(db(), { publicUrl: 'http://admin.example.test' });
    const configuredPort = await configured.listen(0, '127.0.0.1');
    try {
      const direct = `http://127.0.0.1:${configuredPort}`;
      const viaPublic = await new Promise<{ status: number; issuer: unknown }>(
        (resolve, reject) => {
          const call = httpRequest(
            `${direct}/oidc/.well-known/openid-configuration`,
            { headers: { host: 'admin.example.test' } },
            (response) => {
              let text = '';
              response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
              response.on('end', () =>
                resolve({ status: response.statusCode!, issuer: JSON.parse(text).issuer }),
              );
            },
          );
          call.on('error', reject);
          call.end();
        },
      );
      expect(viaPublic).toEqual({ status: 200, issuer: 'http://admin.example.test/oidc' });
      const viaAddress = await fetch(`${direct}/oidc/.well-known/openid-configuration`);
      expect(viaAddress.status).toBe(421);
    } finally {
      await configured.close();
    }
  });
});

describe('finding 2: an agent cannot obtain a Console token', () => {
  const follow = (jar: CookieJar, response: Response) =>
    followToCallback(url, jar, response, { email: 'ada@example.com', password: PASSWORD });
  const consoleAuthorize = (challenge: string, state: string) =>
    `${url}/oidc/auth?${new URLSearchParams({
      client_id: 'canopy-console',
      redirect_uri: `${url}/oidc/callback`,
      response_type: 'code',
      scope: 'openid',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString()}`;
  const redeem = (code: string, verifier: string, cookie?: string) =>
    redeemConsoleCode(url, code, verifier, cookie);

  it('refuses the code of a console login an agent started, redeemed without the browser', async () => {
    // The admin signed in to the console in this browser.
    const jar = new CookieJar();
    const own = pkce();
    const ownCallback = await follow(
      jar,
      await fetch(consoleAuthorize(own.challenge, 'console'), { redirect: 'manual' }),
    );
    const ownToken = await redeem(
      ownCallback.searchParams.get('code')!,
      own.verifier,
      jar.header(),
    );
    expect(ownToken.status).toBe(200);
    const { access_token: consoleToken } = (await ownToken.json()) as { access_token: string };
    expect(
      (
        await fetch(`${url}/v1/me/workspaces`, {
          headers: { authorization: `Bearer ${consoleToken}` },
        })
      ).status,
    ).toBe(200);

    // An agent hands the console an authorization URL of the console's own client, with a PKCE
    // verifier it keeps; the signed-in browser passes silently and lands on the callback page,
    // whose answer reaches the agent.
    const agent = pkce();
    const stolen = await follow(
      jar,
      await fetch(consoleAuthorize(agent.challenge, 'agent'), {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      }),
    );
    const code = stolen.searchParams.get('code')!;
    expect(code).toBeTruthy();
    // The agent redeems it from its server: no platform login cookie.
    const redeemed = await redeem(code, agent.verifier);
    expect(redeemed.status).toBe(400);
    expect(await redeemed.json()).toMatchObject({ error: 'invalid_grant' });
    // The code is burnt: not even the browser can use it afterwards.
    expect((await redeem(code, agent.verifier, jar.header())).status).toBe(400);
  });

  it('gives an agent’s login a token of the agent’s own client, which the platform API refuses', async () => {
    const registered = await fetch(`${url}/oidc/reg`, {
      method: 'POST',
      headers: { 'forest-secret-key': shopSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ token_endpoint_auth_method: 'none', redirect_uris: ['x'] }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const jar = new CookieJar();
    const callback = await follow(
      jar,
      await fetch(
        `${url}/oidc/auth?${new URLSearchParams({
          client_id: clientId,
          redirect_uri: `${url}/oidc/callback`,
          response_type: 'code',
          scope: 'openid email profile',
          state: 'agent-login',
        }).toString()}`,
        { redirect: 'manual' },
      ),
    );
    const exchanged = await fetch(`${url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        redirect_uri: `${url}/oidc/callback`,
      }).toString(),
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; id_token: string };
    const idToken = JSON.parse(
      Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { aud: unknown };
    expect(idToken.aud).toBe(clientId);
    const stored = await server
      .knex('oidc_payloads')
      .where({ model: 'AccessToken', id: tokens.access_token })
      .first('payload');
    expect(stored.payload.extra).toEqual({ typ: 'agent-login-access', aud: clientId });
    for (const path of ['/v1/me/workspaces', '/v1/project/Shop']) {
      const answer = await fetch(`${url}${path}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(answer.status).toBe(401);
    }
  });
});

describe('cross-origin calls to the OIDC provider', () => {
  /** A token request for the Console's client sent with `origin`; the CORS header it got. */
  function tokenFrom(origin: string): Promise<{ status: number; allowOrigin: unknown }> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'canopy-console',
      code: 'not-a-code',
      redirect_uri: `${url}/oidc/callback`,
      code_verifier: pkce().verifier,
    }).toString();
    return new Promise((resolve, reject) => {
      const call = httpRequest(
        new URL('/oidc/token', url),
        {
          method: 'POST',
          headers: {
            origin,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              allowOrigin: response.headers['access-control-allow-origin'],
            }),
          );
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  }

  it("answers the Console's own origin, and no other site nor an opaque origin", async () => {
    const own = await tokenFrom(url);
    expect(own.allowOrigin).toBe(url);
    expect(own.status).toBe(400);

    for (const origin of ['https://evil.example', 'null', `http://localhost:${port}`]) {
      const other = await tokenFrom(origin);
      expect(other.allowOrigin).toBeUndefined();
      expect(other.status).toBeGreaterThanOrEqual(400);
      expect(other.status).toBeLessThan(500);
    }
  });
});
