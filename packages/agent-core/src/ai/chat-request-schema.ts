import { z } from 'zod';

import { AiError } from './ai-error';
import type { ChatRequest } from './chat-completion';

const content = z.union([
  z.string(),
  z.array(z.object({ type: z.literal('text'), text: z.string() }).passthrough()),
]);
const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
const message = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content }),
  z.object({ role: z.literal('user'), content }),
  z.object({
    role: z.literal('assistant'),
    content: content.nullable().optional(),
    tool_calls: z.array(toolCall).optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content }),
]);
const schema = z.object({
  messages: z.array(message).min(1),
  tools: z
    .array(
      z.object({
        type: z.literal('function'),
        function: z.object({
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (at most 64)'),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .optional(),
  tool_choice: z
    .union([
      z.enum(['auto', 'none', 'required']),
      z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
    ])
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
});

/**
 * Validates the body of an `ai-query`.
 *
 * @throws AiError `AI_INVALID_REQUEST` naming each wrong path and what it should be.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  const result = schema.safeParse(body);
  if (result.success) return result.data as ChatRequest;
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
  throw new AiError(
    'AI_INVALID_REQUEST',
    `Invalid ai-query body (an OpenAI Chat Completions request with messages, tools?, ` +
      `tool_choice?, parallel_tool_calls?): ${problems.join('; ')}`,
  );
}
