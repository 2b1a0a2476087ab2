import { inspect } from 'node:util';

import { isAiError } from './ai-error';
import { createAiProvider } from './ai-provider';

const KEY = 'sk-test-secret-key-123';

describe('createAiProvider', () => {
  it('accepts models with tool calling, including dated variants of current ones', () => {
    expect(
      createAiProvider({ name: 'a', provider: 'openai', apiKey: KEY, model: 'gpt-4o-2024-08-06' })
        .model,
    ).toBe('gpt-4o-2024-08-06');
    expect(
      createAiProvider({
        name: 'a',
        provider: 'anthropic',
        apiKey: KEY,
        model: 'claude-3-5-haiku-20241022',
      }).model,
    ).toBe('claude-3-5-haiku-20241022');
  });

  it('keeps the API key out of JSON and inspection', () => {
    const provider = createAiProvider({
      name: 'assistant',
      provider: 'openai',
      apiKey: KEY,
      model: 'gpt-4o',
    });
    expect(JSON.stringify(provider)).toBe(
      '{"name":"assistant","provider":"openai","model":"gpt-4o"}',
    );
    expect(inspect(provider, { depth: 5, showHidden: true })).not.toContain(KEY);
    expect({ name: provider.name, provider: provider.provider, model: provider.model }).toEqual({
      name: 'assistant',
      provider: 'openai',
      model: 'gpt-4o',
    });
  });

  it.each([
    [{ provider: 'mistral' }, 'provider must be "openai" or "anthropic", got "mistral".'],
    [{ apiKey: '' }, 'apiKey must be a non-empty string.'],
    [{ model: undefined }, 'model must be a non-empty string.'],
    [{ baseUrl: 'localhost:1' }, 'baseUrl must be an http(s) URL, got "localhost:1".'],
    [{ maxTokens: 0 }, 'maxTokens must be a positive integer, got 0.'],
    [
      { model: 'claude-2.1' },
      'the anthropic model "claude-2.1" cannot call tools, which the AI features need; ' +
        'choose a model with tool calling (e.g. claude-sonnet-4-5).',
    ],
    [
      { provider: 'openai', model: 'gpt-3.5-turbo-instruct-0914' },
      'the openai model "gpt-3.5-turbo-instruct-0914" cannot call tools, which the AI ' +
        'features need; choose a model with tool calling (e.g. gpt-4o).',
    ],
  ])('refuses %j with a clear error', (override, message) => {
    const options = { name: 'a', provider: 'anthropic', apiKey: KEY, model: 'claude', ...override };
    let error: unknown;
    try {
      createAiProvider(options as Parameters<typeof createAiProvider>[0]);
    } catch (caught) {
      error = caught;
    }
    expect(isAiError(error, 'INVALID_AI_PROVIDER')).toBe(true);
    expect((error as Error).message).toBe(`createAiProvider: ${message}`);
  });
});
