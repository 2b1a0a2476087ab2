import { AiError } from './ai-error';
import type { ProviderCall } from './ai-provider';
import type { ChatCompletion, ChatRequest } from './chat-completion';
import { postToProvider } from './provider-http';

/**
 * OpenAI Chat Completions (`POST <baseUrl>/chat/completions`, bearer key): the request is
 * forwarded with the configured model, the answer is already the common shape.
 */
export async function callOpenAi(
  call: ProviderCall,
  request: ChatRequest,
): Promise<ChatCompletion> {
  const label = `The AI provider "${call.name}" (openai)`;
  const answer = (await postToProvider(
    label,
    `${call.baseUrl}/chat/completions`,
    { authorization: `Bearer ${call.apiKey}` },
    {
      model: call.model,
      messages: request.messages,
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.tool_choice ? { tool_choice: request.tool_choice } : {}),
      ...(request.parallel_tool_calls === undefined
        ? {}
        : { parallel_tool_calls: request.parallel_tool_calls }),
    },
    call.timeoutMs,
    call.apiKey,
  )) as ChatCompletion;
  if (!Array.isArray(answer.choices)) {
    throw new AiError('AI_PROVIDER_UNAVAILABLE', `${label} answered without choices.`);
  }
  return answer;
}
