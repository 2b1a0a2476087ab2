/**
 * The common shape of the AI route (platform protocol §17): a subset of the OpenAI Chat
 * Completions request, and its response object. Anthropic answers are converted to it.
 */

/** A function the model may call. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** A call of a tool by the model; `arguments` is a JSON string. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A text part of a message content array. */
export interface ChatTextPart {
  type: 'text';
  text: string;
}

/** One message of the conversation. */
export type ChatMessage =
  | { role: 'system'; content: string | ChatTextPart[] }
  | { role: 'developer'; content: string | ChatTextPart[] }
  | { role: 'user'; content: string | ChatTextPart[] }
  | { role: 'assistant'; content?: string | ChatTextPart[] | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string | ChatTextPart[] };

/** `tool_choice` of the request. */
export type ChatToolChoice =
  'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** The body of `POST /_internal/ai-proxy/ai-query`. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
}

/** The answer: an OpenAI Chat Completions response object. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] };
    finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter' | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** The text of a message content (parts joined). */
export function contentText(content: string | ChatTextPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text).join('');
}
