import { isAiError } from './ai-error';
import { createAiProvider } from './ai-provider';
import type { ChatRequest } from './chat-completion';
import { FakeProvider } from './test-fixtures/fake-provider';

const KEY = 'sk-openai-test-key';
const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'You help support agents.' },
    { role: 'user', content: 'Summarize order 1042' },
  ],
  tools: [{ type: 'function', function: { name: 'get_order', parameters: { type: 'object' } } }],
  tool_choice: 'auto',
  parallel_tool_calls: false,
};
const TOOL_ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1767225600,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_order', arguments: '{"id":1042}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
};

describe('OpenAI chat completions', () => {
  let fake: FakeProvider;
  beforeEach(async () => {
    fake = await new FakeProvider().start();
  });
  afterEach(() => fake.stop());

  const provider = () =>
    createAiProvider({
      name: 'gpt',
      provider: 'openai',
      apiKey: KEY,
      model: 'gpt-4o',
      baseUrl: fake.url,
    });

  it('posts the request with the model and the bearer key, and returns the tool calls', async () => {
    fake.answer(200, TOOL_ANSWER);
    expect(await provider().complete(REQUEST)).toEqual(TOOL_ANSWER);
    const [received] = fake.received;
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received?.body).toEqual({ model: 'gpt-4o', ...REQUEST });
  });

  it.each([
    [401, 'AI_PROVIDER_UNAUTHORIZED', 'Incorrect API key provided: sk-openai-test-key'],
    [429, 'AI_PROVIDER_RATE_LIMITED', 'Rate limit reached for gpt-4o'],
    [500, 'AI_PROVIDER_UNAVAILABLE', 'The server had an error'],
    [400, 'AI_PROVIDER_REFUSED', "Invalid value for 'tool_choice'"],
  ])('maps HTTP %i to %s without leaking the key', async (status, code, message) => {
    fake.answer(status, { error: { message, type: 'error', code: null } });
    const error = await provider()
      .complete(REQUEST)
      .catch((caught: unknown) => caught);
    expect(isAiError(error, code as never)).toBe(true);
    expect((error as Error).message).toContain(
      `The AI provider "gpt" (openai) answered HTTP ${status}`,
    );
    expect((error as Error).message).not.toContain(KEY);
  });

  it('says when the provider cannot be reached', async () => {
    const url = fake.url;
    await fake.stop();
    const unreachable = createAiProvider({
      name: 'gpt',
      provider: 'openai',
      apiKey: KEY,
      model: 'm',
      baseUrl: url,
    });
    const error = await unreachable.complete(REQUEST).catch((caught: unknown) => caught);
    expect(isAiError(error, 'AI_PROVIDER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/could not be reached/);
  });
});
