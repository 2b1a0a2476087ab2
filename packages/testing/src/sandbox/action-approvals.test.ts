import { createHash } from 'node:crypto';

import { createServerSandbox, type ServerSandbox } from './create-server-sandbox';

const SECRET = 'a'.repeat(64);
const REDIRECT = 'https://client.example/cb';
const VERIFIER = 'v'.repeat(50);

let sandbox: ServerSandbox;
beforeEach(async () => {
  sandbox = await createServerSandbox(0, { heartbeatMs: 50 });
});
afterEach(() => sandbox.close());

async function platformToken(): Promise<string> {
  const registered = await fetch(`${sandbox.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT] }),
  }).then((response) => response.json() as Promise<{ client_id: string }>);
  const authorize = new URL(`${sandbox.url}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') as string).searchParams.get('code');
  const tokens = await fetch(`${sandbox.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'forest-secret-key': SECRET },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
      code_verifier: VERIFIER,
    }),
  }).then((response) => response.json() as Promise<{ access_token: string }>);
  return tokens.access_token;
}

describe('action approval requests', () => {
  it('records requests and comments filed with a platform token and its rendering', async () => {
    const token = await platformToken();
    const post = (path: string, body: unknown, rendering = '1', bearer = token) =>
      fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${bearer}`,
          'forest-rendering-id': rendering,
        },
        body: JSON.stringify(body),
      });
    const attributes = {
      status: null,
      action_name: 'Refund order',
      collection_name: 'orders',
      record_ids: ['1042'],
      inputs: [{ name: 'Reason', type: 'Enum', value: 'late' }],
    };
    expect((await post('/api/action-approvals', { data: { attributes } }, '2')).status).toBe(401);
    expect((await post('/api/action-approvals', { data: { attributes } }, '1', 'x')).status).toBe(
      401,
    );
    const created = await post('/api/action-approvals', {
      data: { type: 'action-approvals', attributes },
    });
    expect(await created.json()).toMatchObject({ data: { id: '1' } });
    await post('/api/action-approvals/1/comments', {
      data: { attributes: { comment: 'Customer waited 3 weeks' } },
    });
    expect(sandbox.actionApprovals()).toEqual([
      {
        id: '1',
        requesterId: 1,
        renderingId: 1,
        actionName: 'Refund order',
        collectionName: 'orders',
        recordIds: ['1042'],
        inputs: [{ name: 'Reason', type: 'Enum', value: 'late' }],
        comments: ['Customer waited 3 weeks'],
      },
    ]);
    expect((await post('/api/action-approvals/9/comments', { data: {} })).status).toBe(404);
  });
});
