import { signSessionToken } from '../../src';
import { TEST_KEYS } from './test-server';

/**
 * Calls the management API of a listening server over HTTP as `userId` (a session token signed
 * with the test keys, valid for an hour), and answers the parsed JSON body (null for an empty one).
 *
 * @throws Error with the method, path, status and body of any answer that is not 2xx.
 */
export function managementApi(
  url: string,
  userId: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): (method: string, path: string, body?: unknown) => Promise<any> {
  const session = signSessionToken(TEST_KEYS, {
    userId,
    sso: false,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return async (method, path, body) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/**
 * Through the management API: project `Shop` with environment `Production` (production unless
 * `environment` says otherwise), role and team `Support`, and Ada Byron, a `user`-level member
 * with that role and team. Answers the env secret, the team and Ada's member item.
 */
export async function createSupportShop(
  api: ReturnType<typeof managementApi>,
  environment: { type?: 'production' | 'development'; apiEndpoint?: string } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ secret: string; team: any; ada: any }> {
  await api('POST', '/v1/projects', { name: 'Shop' });
  const { secret } = await api('POST', '/v1/project/Shop/environments', {
    name: 'Production',
    ...environment,
  });
  await api('POST', '/v1/project/Shop/roles', { name: 'Support' });
  const team = await api('POST', '/v1/project/Shop/teams', { name: 'Support' });
  const ada = await api('POST', '/v1/project/Shop/members', {
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Byron',
    permissionLevel: 'user',
    roleName: 'Support',
    teamNames: ['Support'],
  });
  return { secret, team, ada };
}
