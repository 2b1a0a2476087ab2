import { AiError } from './ai-error';
import { callAnthropic } from './anthropic-client';
import type { ChatCompletion, ChatRequest } from './chat-completion';
import { callOpenAi } from './openai-client';

/** The AI providers the agent can proxy. */
export type AiProviderKind = 'openai' | 'anthropic';

/** Options of {@link createAiProvider}. */
export interface AiProviderOptions {
  /** Name of this configuration (the `ai-name` of the AI route). */
  name: string;
  provider: AiProviderKind;
  /** The provider's API key. Never logged nor put in error messages. */
  apiKey: string;
  /** A model able to call tools, e.g. `gpt-4o` or `claude-sonnet-4-5`. */
  model: string;
  /** API base URL; default `https://api.openai.com/v1` or `https://api.anthropic.com/v1`. */
  baseUrl?: string;
  /** Anthropic's required `max_tokens`; default 4096. */
  maxTokens?: number;
  /** Time limit of one provider call; default 60 s. */
  timeoutMs?: number;
}

/** How a provider call is made (resolved options, the key included). */
export interface ProviderCall {
  name: string;
  apiKey: string;
  model: string;
  baseUrl: string;
  maxTokens: number;
  timeoutMs: number;
}

const DEFAULT_BASE_URLS: Record<AiProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/**
 * A configured AI provider, built by {@link createAiProvider} and given to `agent.addAi`. Its
 * API key is held privately: it does not appear in `JSON.stringify`, logs or inspection.
 */
export class AiProviderDefinition {
  readonly name: string;
  readonly provider: AiProviderKind;
  readonly model: string;
  readonly #call: ProviderCall;

  /** @internal use {@link createAiProvider}. */
  constructor(provider: AiProviderKind, call: ProviderCall) {
    this.name = call.name;
    this.provider = provider;
    this.model = call.model;
    this.#call = call;
  }

  /** Sends a chat request to the provider and answers in the OpenAI Chat Completions shape. */
  complete(request: ChatRequest): Promise<ChatCompletion> {
    return this.provider === 'openai'
      ? callOpenAi(this.#call, request)
      : callAnthropic(this.#call, request);
  }

  /** What may be shown: name, provider and model. */
  toJSON(): { name: string; provider: AiProviderKind; model: string } {
    return { name: this.name, provider: this.provider, model: this.model };
  }
}

/**
 * Models each provider serves without tool calling (the AI features need it); matched on the
 * model name or its dated variants (`claude-2.1` also refuses `claude-2.1-20231121`).
 */
const MODELS_WITHOUT_TOOLS: Record<AiProviderKind, readonly string[]> = {
  openai: ['gpt-3.5-turbo-instruct', 'davinci-002', 'babbage-002', 'o1-mini', 'o1-preview'],
  anthropic: ['claude-instant-1.2', 'claude-2.0', 'claude-2.1'],
};

function invalid(message: string): AiError {
  return new AiError('INVALID_AI_PROVIDER', `createAiProvider: ${message}`);
}

function nonEmpty(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`${option} must be a non-empty string.`);
  }
  return value;
}

/**
 * Configures one of the two supported AI providers (OpenAI Chat Completions or Anthropic
 * Messages, with tool calling) for `agent.addAi`.
 *
 * @throws AiError `INVALID_AI_PROVIDER` saying which option is wrong (never echoing the key).
 * @example
 * agent.addAi(createAiProvider({
 *   name: 'assistant', provider: 'openai', model: 'gpt-4o', apiKey: process.env.OPENAI_API_KEY!,
 * }));
 */
export function createAiProvider(options: AiProviderOptions): AiProviderDefinition {
  if (typeof options !== 'object' || options === null) {
    throw invalid('expects {name, provider, apiKey, model}.');
  }
  const provider = options.provider;
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw invalid(`provider must be "openai" or "anthropic", got ${JSON.stringify(provider)}.`);
  }
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw invalid(`baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}.`);
  }
  const positive = (value: number | undefined, option: string, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value <= 0) {
      throw invalid(`${option} must be a positive integer, got ${String(value)}.`);
    }
    return value;
  };
  const model = nonEmpty(options.model, 'model');
  if (
    MODELS_WITHOUT_TOOLS[provider].some((name) => model === name || model.startsWith(`${name}-`))
  ) {
    throw invalid(
      `the ${provider} model "${model}" cannot call tools, which the AI features need; ` +
        `choose a model with tool calling (e.g. ${provider === 'openai' ? 'gpt-4o' : 'claude-sonnet-4-5'}).`,
    );
  }
  return new AiProviderDefinition(provider, {
    name: nonEmpty(options.name, 'name'),
    apiKey: nonEmpty(options.apiKey, 'apiKey'),
    model,
    baseUrl,
    maxTokens: positive(options.maxTokens, 'maxTokens', 4096),
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', 60_000),
  });
}
