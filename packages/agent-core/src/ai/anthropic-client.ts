import { AiError } from './ai-error';
import type { ProviderCall } from './ai-provider';
import {
  type ChatCompletion,
  type ChatMessage,
  type ChatRequest,
  type ChatToolCall,
  contentText,
} from './chat-completion';
import { postToProvider } from './provider-http';

/** The Messages API version this client speaks. */
const ANTHROPIC_VERSION = '2023-06-01';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

interface AnthropicResponse {
  id: string;
  model: string;
  content: Block[];
  stop_reason: string | null;
  usage?: { input_tokens: number; output_tokens: number };
}

function parseArguments(call: ChatToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments || '{}');
  } catch {
    throw new AiError(
      'AI_INVALID_REQUEST',
      `The arguments of tool call ${call.id} (${call.function.name}) are not valid JSON.`,
    );
  }
}

/** One message's blocks; system messages are handled by the caller. */
function toBlocks(message: Exclude<ChatMessage, { role: 'system' | 'developer' }>): Block[] {
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: message.tool_call_id,
        content: contentText(message.content),
      },
    ];
  }
  const text = contentText(message.content);
  const blocks: Block[] = text ? [{ type: 'text', text }] : [];
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      blocks.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: parseArguments(call),
      });
    }
  }
  return blocks;
}

/**
 * The Messages request of a chat request: system messages become `system`, tool results become
 * user `tool_result` blocks, consecutive messages of one role are merged (the API alternates
 * roles), tools get `input_schema`, and `tool_choice`/`parallel_tool_calls` are translated.
 */
export function toAnthropicRequest(call: ProviderCall, request: ChatRequest) {
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(contentText(message.content));
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  let toolChoice: Record<string, unknown> | undefined;
  const choice = request.tool_choice;
  if (choice === 'auto') toolChoice = { type: 'auto' };
  else if (choice === 'none') toolChoice = { type: 'none' };
  else if (choice === 'required') toolChoice = { type: 'any' };
  else if (choice) toolChoice = { type: 'tool', name: choice.function.name };
  if (request.parallel_tool_calls === false && request.tools?.length) {
    toolChoice = { ...(toolChoice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  }
  return {
    model: call.model,
    max_tokens: call.maxTokens,
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    messages,
    ...(request.tools
      ? {
          tools: request.tools.map(({ function: tool }) => ({
            name: tool.name,
            ...(tool.description ? { description: tool.description } : {}),
            input_schema: tool.parameters ?? { type: 'object', properties: {} },
          })),
        }
      : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
  };
}

const FINISH_REASONS: Record<string, ChatCompletion['choices'][number]['finish_reason']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** The Messages answer in the OpenAI Chat Completions shape. */
export function fromAnthropicResponse(response: AnthropicResponse): ChatCompletion {
  const text = response.content
    .filter((block): block is Extract<Block, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('');
  const toolCalls: ChatToolCall[] = response.content
    .filter((block): block is Extract<Block, { type: 'tool_use' }> => block.type === 'tool_use')
    .map((block) => ({
      id: block.id,
      type: 'function',
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
    }));
  const usage = response.usage;
  return {
    id: response.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' ? null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: FINISH_REASONS[response.stop_reason ?? ''] ?? null,
      },
    ],
    ...(usage
      ? {
          usage: {
            prompt_tokens: usage.input_tokens,
            completion_tokens: usage.output_tokens,
            total_tokens: usage.input_tokens + usage.output_tokens,
          },
        }
      : {}),
  };
}

/** Anthropic Messages (`POST <baseUrl>/messages`, `x-api-key`), answered in the common shape. */
export async function callAnthropic(
  call: ProviderCall,
  request: ChatRequest,
): Promise<ChatCompletion> {
  const label = `The AI provider "${call.name}" (anthropic)`;
  const answer = (await postToProvider(
    label,
    `${call.baseUrl}/messages`,
    { 'x-api-key': call.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
    toAnthropicRequest(call, request),
    call.timeoutMs,
    call.apiKey,
  )) as AnthropicResponse;
  if (!Array.isArray(answer.content)) {
    throw new AiError('AI_PROVIDER_UNAVAILABLE', `${label} answered without content.`);
  }
  return fromAnthropicResponse(answer);
}
