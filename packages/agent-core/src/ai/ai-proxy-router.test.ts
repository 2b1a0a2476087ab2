import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { adminSessionToken } from '../../test/fixtures';
import { ShopWithActions } from '../http/test-fixtures/action-collection';
import { isAiError } from './ai-error';
import { createAiProvider } from './ai-provider';
import { FakeProvider } from './test-fixtures/fake-provider';

const ENV_SECRET = '12'.repeat(32);
const AUTH_SECRET = 'ai-proxy-auth-secret';
const KEY = 'sk-ant-route-key';

describe('the AI route of an agent (addAi)', () => {
  let sandbox: ServerSandbox;
  let fake: FakeProvider;
  let agent: Agent;
  const logs: string[] = [];
  let url: string;
  const token = adminSessionToken(AUTH_SECRET, {
    id: TEST_USER.id,
    email: TEST_USER.email,
    firstName: 'Test',
  });
  const query = (body: unknown, headers: Record<string, string> = {}, path = '') =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    fake = await new FakeProvider().start();
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-ai-')), '.canopy-schema.json'),
      isProduction: false,
      logger: (level, message) => logs.push(`${level} ${message}`),
      loggerLevel: 'Debug',
    })
      .addDataSource(async () => new ShopWithActions())
      .addAi(
        createAiProvider({
          name: 'claude',
          provider: 'anthropic',
          apiKey: KEY,
          model: 'claude-sonnet-4-5',
          baseUrl: fake.url,
        }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    url = `http://127.0.0.1:${agent.standaloneServerPort}/forest/_internal/ai-proxy/ai-query`;
  }, 30_000);

  afterAll(async () => {
    await agent?.stop();
    await fake?.stop();
    await sandbox?.close();
  });

  it('forwards a chat request with tools and answers in the OpenAI shape', async () => {
    fake.answer(200, {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_ticket', input: { id: 7 } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 12, output_tokens: 3 },
    });
    const response = await query(
      {
        messages: [{ role: 'user', content: 'Open ticket 7' }],
        tools: [
          { type: 'function', function: { name: 'get_ticket', parameters: { type: 'object' } } },
        ],
        tool_choice: 'auto',
      },
      {},
      '?ai-name=claude',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'toolu_1',
                type: 'function',
                function: { name: 'get_ticket', arguments: '{"id":7}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    expect(fake.received.at(-1)?.body).toMatchObject({ tool_choice: { type: 'auto' } });
  });

  it('requires a session token and a valid body', async () => {
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anonymous.status).toBe(401);
    const invalid = await query({ messages: [{ role: 'robot', content: 'hi' }] });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { errors: { name: string; detail: string }[] };
    expect(body.errors[0]?.name).toBe('AI_INVALID_REQUEST');
    expect(body.errors[0]?.detail).toMatch(/^Invalid ai-query body .*messages\.0\.role/);
  });

  it('maps provider failures to clear errors and never logs the key', async () => {
    fake.answer(401, {
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const unauthorized = await query({ messages: [{ role: 'user', content: 'hi' }] });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({
      errors: [
        {
          name: 'AI_PROVIDER_UNAUTHORIZED',
          detail:
            'The AI provider "claude" (anthropic) answered HTTP 401: invalid x-api-key ' +
            '(check the apiKey given to createAiProvider).',
          status: 401,
        },
      ],
    });
    fake.answer(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect((await query({ messages: [{ role: 'user', content: 'hi' }] })).status).toBe(502);
    fake.answer(429, { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } });
    expect((await query({ messages: [{ role: 'user', content: 'hi' }] })).status).toBe(429);
    expect(logs.some((line) => line.includes('AI query to "claude"'))).toBe(true);
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it('can be configured once', () => {
    const provider = createAiProvider({
      name: 'gpt',
      provider: 'openai',
      apiKey: 'k',
      model: 'gpt-4o',
    });
    const fresh = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      logger: () => undefined,
    });
    fresh.addAi(provider);
    let error: unknown;
    try {
      fresh.addAi(provider);
    } catch (caught) {
      error = caught;
    }
    expect(isAiError(error, 'AI_ALREADY_CONFIGURED')).toBe(true);
    expect((error as Error).message).toBe(
      'addAi() can be called once: this agent already uses the AI provider "gpt".',
    );
    const other = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      logger: () => undefined,
    });
    expect(() => other.addAi({} as never)).toThrow(
      'addAi() expects the result of createAiProvider',
    );
  });
});
