// A stand-in for the Canopy platform's CLI endpoints, for the client's unit tests
// (src/auth/device-login.test.ts): OpenID discovery, the RFC 8628 device authorization and token
// endpoints (device-code and refresh-token grants) and GET /liana/environment, as
// packages/cloud-cli/README.md documents them, plus what the real server never does on demand
// (`slow_down`). The end-to-end test runs against the real @canopy/admin-api-server
// (test/platform.ts). Approval, which a developer gives in the browser, is one stand-in-only POST
// (/oidc/device/decision, form user_code and approve=yes|no).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface DeviceGrant {
  deviceCode: string;
  userCode: string;
  state: 'pending' | 'approved' | 'denied';
}

/** Settings a test can change while the stand-in runs. */
export interface StandInSettings {
  /** Lifetime of issued access tokens, in seconds. */
  accessTokenSeconds: number;
  /** `interval` of device authorizations, in seconds. */
  pollInterval: number;
  /** Answer the next device-code poll with `slow_down`. */
  slowDownOnce: boolean;
}

export interface StandInPlatform {
  readonly url: string;
  readonly settings: StandInSettings;
  /** Requests received, as `METHOD path` (for asserting what the CLI did). */
  readonly requests: string[];
  /** When each device-code poll arrived (epoch ms). */
  readonly polls: number[];
  /** The env secret the stand-in knows, of project "Shop", environment "Production". */
  readonly envSecret: string;
  /** Approves (or denies) the pending device login with this user code, as the browser would. */
  decide(userCode: string, approve: boolean): Promise<void>;
  /** Forgets every issued access and refresh token. */
  revokeAll(): void;
  /** Issues an access token directly (as an application token for CANOPY_TOKEN). */
  issueAccessToken(): string;
  close(): Promise<void>;
}

/** Starts the stand-in on a free loopback port. */
export async function startStandInPlatform(): Promise<StandInPlatform> {
  const settings: StandInSettings = {
    accessTokenSeconds: 3600,
    pollInterval: 1,
    slowDownOnce: false,
  };
  const requests: string[] = [];
  const polls: number[] = [];
  const grants = new Map<string, DeviceGrant>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const envSecret = randomBytes(32).toString('hex');
  let url = '';

  const issue = () => {
    const access = `at-${randomBytes(12).toString('hex')}`;
    accessTokens.set(access, Date.now() + settings.accessTokenSeconds * 1000);
    return access;
  };
  const tokens = () => {
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    refreshTokens.add(refresh);
    return {
      access_token: issue(),
      token_type: 'Bearer',
      expires_in: settings.accessTokenSeconds,
      refresh_token: refresh,
      scope: 'openid offline_access',
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', url).pathname;
    requests.push(`${request.method} ${path}`);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
      response.end(status === 204 ? undefined : JSON.stringify(body));
    };
    const form = new URLSearchParams(await readBody(request));

    if (request.method === 'GET' && path === '/oidc/.well-known/openid-configuration') {
      return send(200, {
        issuer: `${url}/oidc`,
        device_authorization_endpoint: `${url}/oidc/device/auth`,
        token_endpoint: `${url}/oidc/token`,
        grant_types_supported: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      });
    }
    if (request.method === 'POST' && path === '/oidc/device/auth') {
      if (form.get('client_id') !== 'canopy-cloud') return send(401, { error: 'invalid_client' });
      const grant: DeviceGrant = {
        deviceCode: randomBytes(16).toString('hex'),
        userCode: `${code4()}-${code4()}`,
        state: 'pending',
      };
      grants.set(grant.deviceCode, grant);
      return send(200, {
        device_code: grant.deviceCode,
        user_code: grant.userCode,
        verification_uri: `${url}/oidc/device`,
        verification_uri_complete: `${url}/oidc/device?user_code=${grant.userCode}`,
        expires_in: 600,
        interval: settings.pollInterval,
      });
    }
    if (request.method === 'POST' && path === '/oidc/token') {
      if (form.get('client_id') !== 'canopy-cloud') return send(401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:device_code') {
        polls.push(Date.now());
        const grant = grants.get(form.get('device_code') ?? '');
        if (!grant) return send(400, { error: 'invalid_grant' });
        if (settings.slowDownOnce) {
          settings.slowDownOnce = false;
          return send(400, { error: 'slow_down' });
        }
        if (grant.state === 'pending') return send(400, { error: 'authorization_pending' });
        grants.delete(grant.deviceCode);
        if (grant.state === 'denied') return send(400, { error: 'access_denied' });
        return send(200, tokens());
      }
      if (form.get('grant_type') === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!refreshTokens.delete(refresh)) return send(400, { error: 'invalid_grant' });
        return send(200, tokens());
      }
      return send(400, { error: 'unsupported_grant_type' });
    }
    if (request.method === 'POST' && path === '/oidc/device/decision') {
      const userCode = form.get('user_code');
      const grant = [...grants.values()].find((candidate) => candidate.userCode === userCode);
      if (!grant) return send(404, { error: 'unknown user_code' });
      grant.state = form.get('approve') === 'yes' ? 'approved' : 'denied';
      return send(204, null);
    }
    if (request.method === 'GET' && path === '/liana/environment') {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const expiry = accessTokens.get(bearer);
      if (expiry === undefined || expiry < Date.now()) {
        return send(401, { errors: [{ detail: 'The access token is invalid or expired.' }] });
      }
      if (request.headers['forest-secret-key'] !== envSecret) {
        return send(404, { errors: [{ detail: 'No environment has this secret.' }] });
      }
      return send(200, {
        data: {
          type: 'environments',
          id: '7',
          attributes: { name: 'Production', api_endpoint: 'http://localhost:3351' },
          relationships: { project: { data: { type: 'projects', id: '3' } } },
        },
        included: [{ type: 'projects', id: '3', attributes: { name: 'Shop' } }],
      });
    }
    return send(404, { errors: [{ detail: `No route ${request.method} ${path}.` }] });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    settings,
    requests,
    polls,
    envSecret,
    async decide(userCode, approve) {
      const response = await fetch(`${url}/oidc/device/decision`, {
        method: 'POST',
        body: new URLSearchParams({ user_code: userCode, approve: approve ? 'yes' : 'no' }),
      });
      if (response.status !== 204)
        throw new Error(`No pending device login has the code ${userCode}`);
    },
    revokeAll() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    issueAccessToken: issue,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function code4(): string {
  return randomBytes(2).toString('hex').toUpperCase();
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
