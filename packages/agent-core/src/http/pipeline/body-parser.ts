import type { ServerResponse } from 'node:http';

import { sendPlainText } from './send-json';

/** Default body size limit of agent-http-protocol §1.2. */
export const DEFAULT_BODY_LIMIT = '50mb';

/** The methods whose bodies are parsed (§1.2): a `DELETE` may carry a selection body. */
export const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Answers a body-parser failure as §1.2 and §14.4 say: plain text `Bad Request` (400) or
 * `Payload Too Large` (413). Returns `false` for any other error (not answered).
 */
export function answerBodyError(error: unknown, response: ServerResponse): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return false;
  if (type === 'entity.too.large') sendPlainText(response, 413, 'Payload Too Large');
  else sendPlainText(response, 400, 'Bad Request');
  return true;
}
