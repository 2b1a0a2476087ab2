import { isAiError } from './ai-error';
import { createAiProvider } from './ai-provider';
import type { ChatRequest } from './chat-completion';
import { FakeProvider } from './test-fixtures/fake-provider';

const KEY = 'sk-ant-test-key';

describe('Anthropic messages', () => {
  let fake: FakeProvider;
  beforeEach(async () => {
    fake = await new FakeProvider().start();
  });
  afterEach(() => fake.stop());

  const provider = () =>
    createAiProvider({
      name: 'claude',
      provider: 'anthropic',
      apiKey: KEY,
      model: 'claude-sonnet-4-5',
      baseUrl: fake.url,
      maxTokens: 1024,
    });

  it('converts the conversation, tools and tool choice to the Messages format', async () => {
    fake.answer(200, {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Order 1042 is late.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 30, output_tokens: 7 },
    });
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 'You help support agents.' },
        { role: 'user', content: [{ type: 'text', text: 'Summarize order 1042' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_order', arguments: '{"id":1042}' },
            },
            {
              id: 'toolu_2',
              type: 'function',
              function: { name: 'get_customer', arguments: '{}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '{"status":"late"}' },
        { role: 'tool', tool_call_id: 'toolu_2', content: '{"name":"Ada"}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_order',
            description: 'Reads an order',
            parameters: { type: 'object', properties: { id: { type: 'number' } } },
          },
        },
        { type: 'function', function: { name: 'get_customer' } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
    };
    const answer = await provider().complete(request);
    const [received] = fake.received;
    expect(received?.path).toBe('/v1/messages');
    expect(received?.headers['x-api-key']).toBe(KEY);
    expect(received?.headers['anthropic-version']).toBe('2023-06-01');
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You help support agents.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Summarize order 1042' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_order', input: { id: 1042 } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_customer', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"status":"late"}' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"name":"Ada"}' },
          ],
        },
      ],
      tools: [
        {
          name: 'get_order',
          description: 'Reads an order',
          input_schema: { type: 'object', properties: { id: { type: 'number' } } },
        },
        { name: 'get_customer', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
    expect(answer).toEqual({
      id: 'msg_1',
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Order 1042 is late.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 },
    });
  });

  it('converts tool use answers to OpenAI tool calls', async () => {
    fake.answer(200, {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_9', name: 'get_order', input: { id: 1042 } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 4 },
    });
    const answer = await provider().complete({
      messages: [{ role: 'user', content: 'Order 1042?' }],
      tools: [{ type: 'function', function: { name: 'get_order' } }],
      tool_choice: { type: 'function', function: { name: 'get_order' } },
    });
    expect(fake.received[0]?.body).toMatchObject({
      tool_choice: { type: 'tool', name: 'get_order' },
    });
    expect(answer.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          {
            id: 'toolu_9',
            type: 'function',
            function: { name: 'get_order', arguments: '{"id":1042}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it.each([
    [401, 'authentication_error', 'AI_PROVIDER_UNAUTHORIZED'],
    [429, 'rate_limit_error', 'AI_PROVIDER_RATE_LIMITED'],
    [529, 'overloaded_error', 'AI_PROVIDER_UNAVAILABLE'],
    [500, 'api_error', 'AI_PROVIDER_UNAVAILABLE'],
  ])('maps HTTP %i (%s) to %s', async (status, type, code) => {
    fake.answer(status, { type: 'error', error: { type, message: `${type} for ${KEY}` } });
    const error = await provider()
      .complete({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(isAiError(error, code as never)).toBe(true);
    expect((error as Error).message).toContain(`answered HTTP ${status}: ${type} for [redacted]`);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('refuses tool call arguments that are not JSON before calling the provider', async () => {
    const error = await provider()
      .complete({
        messages: [
          {
            role: 'assistant',
            tool_calls: [
              { id: 't', type: 'function', function: { name: 'f', arguments: '{oops' } },
            ],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(isAiError(error, 'AI_INVALID_REQUEST')).toBe(true);
    expect(fake.received).toHaveLength(0);
  });
});
