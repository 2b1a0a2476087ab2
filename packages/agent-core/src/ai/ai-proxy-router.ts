import type { RouteTable } from '../http/pipeline/route-table';
import { sendJson } from '../http/pipeline/send-json';
import type { AgentServices } from '../platform/agent-services';
import { isAiError } from './ai-error';
import type { AiProviderDefinition } from './ai-provider';

/** The request schema (zod), loaded on the first AI query: an agent without AI never loads it. */
const loadChatRequestSchema = () => import('./chat-request-schema');

/**
 * Adds the AI route (platform protocol §17) to the agent's route table:
 * `POST <prefix>/_internal/ai-proxy/ai-query` takes an OpenAI Chat Completions request (messages,
 * tools, tool_choice, parallel_tool_calls), sends it to the configured provider and answers an
 * OpenAI Chat Completions object. It runs after the agent's CORS, session check, IP whitelist and
 * body stages. AI errors keep their message and status (a provider outage is a 502 the user may
 * read); other errors go to the agent's error translator.
 */
export function addAiProxyRoute(
  routes: RouteTable,
  services: AgentServices,
  provider: AiProviderDefinition,
): void {
  const { logger } = services;
  routes.addFeature('POST', '/_internal/ai-proxy/ai-query', async (request, response) => {
    const wanted = new URL(request.url ?? '/', 'http://agent').searchParams.get('ai-name');
    if (wanted !== null && wanted !== '' && wanted !== provider.name) {
      logger(
        'Warn',
        `No AI configuration named "${wanted}": using "${provider.name}" (the only one).`,
      );
    }
    try {
      const { parseChatRequest } = await loadChatRequestSchema();
      const chat = parseChatRequest((request as { body?: unknown }).body);
      logger('Debug', `AI query to "${provider.name}" (${provider.provider}, ${provider.model}).`);
      sendJson(response, await provider.complete(chat));
    } catch (error) {
      if (!isAiError(error)) throw error;
      sendJson(
        response,
        { errors: [{ name: error.code, detail: error.message, status: error.status }] },
        error.status,
      );
    }
  });
}
