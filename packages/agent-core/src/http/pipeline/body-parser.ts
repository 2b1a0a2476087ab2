import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

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

/** A plain-text answer with the headers express's `res.send` gives one (its weak ETag included). */
function sendPlainText(response: ServerResponse, status: number, text: string): void {
  const length = Buffer.byteLength(text);
  const hash = createHash('sha1').update(text, 'utf8').digest('base64').slice(0, 27);
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.setHeader('Content-Length', length);
  response.setHeader('ETag', `W/"${length.toString(16)}-${hash}"`);
  response.end(text);
}
