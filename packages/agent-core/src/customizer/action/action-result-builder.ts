import { Readable } from 'node:stream';
import type { ActionResult, WebhookActionResult } from '../../toolkit/action/action-result';

/**
 * Builds action results (spec §2.4).
 *
 * @example
 * return resultBuilder.setHeader('x-reason', 'refund').success('Refunded', { invalidated: ['orders'] });
 */
export class ActionResultBuilder {
  private readonly headers: Record<string, string> = {};

  /** Success; `invalidated` lists collections the UI should refresh. */
  success(
    message = 'Success',
    options: { html?: string; invalidated?: string[] } = {},
  ): ActionResult {
    return this.withHeaders({
      type: 'Success',
      message,
      html: options.html,
      invalidated: new Set(options.invalidated ?? []),
    });
  }

  /** Error shown to the user. */
  error(message = 'Error', options: { html?: string } = {}): ActionResult {
    return this.withHeaders({ type: 'Error', message, html: options.html });
  }

  /** Asks the front end to call a webhook. */
  webhook(
    url: string,
    method: WebhookActionResult['method'] = 'POST',
    headers: Record<string, string> = {},
    body: unknown = {},
  ): ActionResult {
    return this.withHeaders({ type: 'Webhook', url, method, headers, body });
  }

  /** A file download (the action needs `generateFile: true`). */
  file(
    content: Readable | Buffer | string,
    name = 'file',
    mimeType = 'application/octet-stream',
  ): ActionResult {
    const stream =
      content instanceof Readable
        ? content
        : Readable.from([typeof content === 'string' ? Buffer.from(content) : content]);
    return this.withHeaders({ type: 'File', stream, name, mimeType });
  }

  /** Asks the front end to navigate to `path`. */
  redirectTo(path: string): ActionResult {
    return this.withHeaders({ type: 'Redirect', path });
  }

  /** Adds a response header to whatever result is returned. */
  setHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  /** Attaches the headers set so far to a result. */
  withHeaders(result: ActionResult): ActionResult {
    return Object.keys(this.headers).length
      ? { ...result, responseHeaders: { ...this.headers } }
      : result;
  }
}
