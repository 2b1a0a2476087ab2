import { describe, expect, it } from 'vitest';
import { ApprovalsApi } from './approvals';
import { AgentClient, AgentError } from './client';
import { errorText } from './error-text';
import { parseErrorEnvelope } from './error-envelope';
import { PlatformClient, PlatformError, SESSION_EXPIRED } from './platform-client';

describe('parseErrorEnvelope', () => {
  it('reads the JSON:API envelope with its name, data and reference', () => {
    expect(
      parseErrorEnvelope(
        JSON.stringify({
          errors: [
            {
              detail: 'Boom',
              name: 'InternalError',
              data: { a: 1 },
              meta: { reference: 'ab12cd' },
            },
          ],
        }),
        'fallback',
      ),
    ).toEqual({ message: 'Boom', name: 'InternalError', data: { a: 1 }, reference: 'ab12cd' });
  });

  it('reads the public API envelope: code or error, message, reference', () => {
    expect(
      parseErrorEnvelope('{"code":"internal_error","message":"Oops","reference":"f00d42"}', 'x'),
    ).toEqual({ message: 'Oops', code: 'internal_error', reference: 'f00d42' });
    expect(parseErrorEnvelope('{"error":"forbidden","message":"No"}', 'x')).toEqual({
      message: 'No',
      code: 'forbidden',
    });
  });

  it("reads OAuth's envelope, plain text, and falls back on an empty or wordless body", () => {
    expect(parseErrorEnvelope('{"error":"invalid_grant","error_description":"Bad"}', 'x')).toEqual({
      message: 'Bad',
      code: 'invalid_grant',
    });
    expect(parseErrorEnvelope('Payload too large\n', 'x')).toEqual({
      message: 'Payload too large',
    });
    expect(parseErrorEnvelope('', 'The platform answered 502.')).toEqual({
      message: 'The platform answered 502.',
    });
    expect(parseErrorEnvelope('{"errors":[{}]}', 'fallback')).toEqual({ message: 'fallback' });
  });
});

type Call = { url: string; init: RequestInit };

function clientWith(
  answers: (() => Response)[],
  options: { token?: string[]; renew?: () => Promise<boolean> } = {},
) {
  const calls: Call[] = [];
  const tokens = [...(options.token ?? ['t1'])];
  const dropped: number[] = [];
  const client = new PlatformClient({
    baseUrl: 'http://platform.test/',
    token: {
      get: () => tokens[0],
      drop: () => {
        dropped.push(calls.length);
        tokens.shift();
      },
    },
    onUnauthorized: options.renew,
    fetch: async (url, init) => {
      calls.push({ url: String(url), init: init! });
      return answers[calls.length - 1]!();
    },
  });
  return { client, calls, dropped, tokens };
}

describe('PlatformClient', () => {
  it('sends the token, JSON bodies and headers, and reads JSON and 204 answers', async () => {
    const { client, calls } = clientWith([
      () => new Response('{"ok":true}', { status: 201 }),
      () => new Response(null, { status: 204 }),
    ]);
    expect(await client.json('/v1/x', { method: 'POST', json: { a: 1 } })).toEqual({ ok: true });
    expect(await client.json('/v1/y', { method: 'DELETE' })).toBeUndefined();
    expect(calls[0]!.url).toBe('http://platform.test/v1/x');
    expect(calls[0]!.init.headers).toMatchObject({
      authorization: 'Bearer t1',
      'content-type': 'application/json',
    });
    expect(calls[0]!.init.body).toBe('{"a":1}');
    expect(calls[1]!.init.headers).not.toHaveProperty('content-type');
  });

  it('throws one error class with status, code, message and reference', async () => {
    const { client } = clientWith([
      () =>
        new Response('{"code":"internal_error","message":"Internal error","reference":"9f8e7d"}', {
          status: 500,
          statusText: 'Internal Server Error',
        }),
    ]);
    const error = await client.send('/v1/z').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', reference: '9f8e7d' });
    // The user reads the reference, not "Internal error".
    expect(errorText(error).message).toContain('9f8e7d');
  });

  it('a 401 drops the token, asks for a new sign-in and sends the call once more', async () => {
    let asked = 0;
    const { client, calls, dropped } = clientWith(
      [
        () => new Response('{"error":"unauthorized","message":"expired"}', { status: 401 }),
        () => new Response('{"n":2}'),
      ],
      {
        token: ['old', 'new'],
        renew: async () => {
          asked += 1;
          return true;
        },
      },
    );
    expect(await client.json('/v1/me/workspaces')).toEqual({ n: 2 });
    expect(asked).toBe(1);
    expect(dropped).toEqual([1]);
    expect((calls[1]!.init.headers as Record<string, string>).authorization).toBe('Bearer new');
  });

  it('a missing token asks for a sign-in first; giving up is a 401 PlatformError', async () => {
    let asked = 0;
    const { client, calls } = clientWith([], {
      token: [],
      renew: async () => {
        asked += 1;
        return false;
      },
    });
    const error = await client.send('/v1/a').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', message: SESSION_EXPIRED });
    expect(asked).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it("a call that checks a credential keeps the token on a 401 and says the platform's words", async () => {
    let asked = 0;
    const { client, tokens } = clientWith(
      [
        () =>
          new Response('{"error":"unauthorized","message":"The current password is wrong."}', {
            status: 401,
          }),
      ],
      {
        renew: async () => {
          asked += 1;
          return true;
        },
      },
    );
    const error = await client
      .send('/v1/account/password', { method: 'PUT', renewSession: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, message: 'The current password is wrong.' });
    expect(asked).toBe(0);
    expect(tokens).toEqual(['t1']);
  });

  it('a platform that does not answer is a network PlatformError the user reads as such', async () => {
    const client = new PlatformClient({
      token: { get: () => 't', drop: () => undefined },
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await client.send('/v1/a').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'network' });
    expect(errorText(error).message).toMatch(/could not be reached/);
  });
});

describe('the agent client shares the envelope reader', () => {
  it('keeps the JSON:API name, data and reference on AgentError', async () => {
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'UTC',
      getToken: () => 't',
      fetch: async () =>
        new Response(
          '{"errors":[{"name":"InternalError","detail":"Unexpected error","meta":{"reference":"abc123"}}]}',
          { status: 500 },
        ),
    });
    const error = await client
      .count('orders', { page: 1, size: 10 } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ status: 500, errorName: 'InternalError', reference: 'abc123' });
  });
});

describe('the approvals routes go through the platform client', () => {
  it('names the environment and the team, and decodes the platform’s items', async () => {
    const calls: Call[] = [];
    const item = {
      type: 'action-approvals',
      id: '7',
      attributes: {
        status: 'pending',
        action_name: 'Refund order',
        collection_name: 'orders',
        smart_action_id: null,
        record_ids: ['42'],
        inputs: [],
        requester: { id: '2', email: 's@shop.example', name: 'Sam Support' },
        reviewer: null,
        reviewed_at: null,
        outcome: null,
        outcome_message: null,
        created_at: '2026-11-28T08:00:00.000Z',
        can_approve: true,
        comments: [],
      },
    };
    const api = new ApprovalsApi({
      platform: new PlatformClient({
        token: { get: () => 'tok', drop: () => undefined },
        fetch: async (url, init) => {
          calls.push({ url: String(url), init: init! });
          return new Response(JSON.stringify({ data: [item] }));
        },
      }),
      project: 'Shop',
      environment: 'Production',
      renderingId: 3,
    });
    const [approval] = await api.list({ status: 'pending' });
    expect(approval).toMatchObject({ id: '7', actionName: 'Refund order', canApprove: true });
    expect(calls[0]!.url).toBe(
      '/api/action-approvals?project=Shop&environment=Production&status=pending',
    );
    expect(calls[0]!.init.headers).toMatchObject({
      authorization: 'Bearer tok',
      'forest-rendering-id': '3',
    });
  });
});
