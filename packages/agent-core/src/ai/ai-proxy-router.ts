import express, { type ErrorRequestHandler, type RequestHandler } from 'express';

import { authenticate, sessionCheckOptions } from '../http/auth/authenticate';
import { createErrorHandler } from '../http/errors/error-handler';
import { ipWhitelistGuard } from '../http/ip-whitelist/ip-whitelist-guard';
import { bodyMiddleware } from '../http/pipeline/entry';
import { cors } from '../http/pipeline/cors';
import type { AgentServices } from '../platform/agent-services';
import { isAiError } from './ai-error';
import type { AiProviderDefinition } from './ai-provider';

/** The request schema (zod), loaded on the first AI query: an agent without AI never loads it. */
const loadChatRequestSchema = () => import('./chat-request-schema');

/** AI errors keep their message and status (a provider outage is a 502 the user may read). */
function aiErrors(): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (!isAiError(error)) {
      next(error);
      return;
    }
    response
      .status(error.status)
      .json({ errors: [{ name: error.code, detail: error.message, status: error.status }] });
  };
}

/**
 * Serves the AI route (platform protocol §17) in front of the agent's `router`:
 * `POST <prefix>/_internal/ai-proxy/ai-query` takes an OpenAI Chat Completions request (messages,
 * tools, tool_choice, parallel_tool_calls), sends it to the configured provider and answers an
 * OpenAI Chat Completions object. It goes through the agent's own CORS, body parsing, session
 * check and IP whitelist. Other requests go to `router`.
 */
export function withAiProxy(
  router: RequestHandler,
  services: AgentServices,
  provider: AiProviderDefinition,
): RequestHandler {
  const { options, logger } = services;
  const proxy = express.Router({ caseSensitive: true });
  proxy.use(cors(options.corsOrigins));
  proxy.use(authenticate(sessionCheckOptions(services)));
  if (services.ipWhitelist) proxy.use(ipWhitelistGuard(services.ipWhitelist));
  proxy.use(bodyMiddleware());
  proxy.post('/ai-query', async (request, response) => {
    const wanted = request.query['ai-name'];
    if (typeof wanted === 'string' && wanted !== '' && wanted !== provider.name) {
      logger(
        'Warn',
        `No AI configuration named "${wanted}": using "${provider.name}" (the only one).`,
      );
    }
    const { parseChatRequest } = await loadChatRequestSchema();
    const chat = parseChatRequest(request.body);
    logger('Debug', `AI query to "${provider.name}" (${provider.provider}, ${provider.model}).`);
    response.json(await provider.complete(chat));
  });
  proxy.use(aiErrors());
  proxy.use(createErrorHandler(logger));

  const root = express.Router({ caseSensitive: true });
  root.use(`${options.prefix.replace(/\/+$/, '')}/_internal/ai-proxy`, proxy);
  return (request, response, next) =>
    root(request, response, () => router(request, response, next));
}
