import type { RequestHandler } from 'express';

/** `GET /` (agent-http-protocol §5): public, answers while the agent is started. */
export function healthcheck(): RequestHandler {
  return (_request, response) => {
    response.json({ error: null, message: 'Agent is running' });
  };
}
