import type { HttpRequest, HttpResponse } from '../request/node-http';
import { sendJson } from './send-json';

/** `GET /` (agent-http-protocol §5): public, answers while the agent is started. */
export async function healthcheck(_request: HttpRequest, response: HttpResponse): Promise<void> {
  sendJson(response, { error: null, message: 'Agent is running' });
}
