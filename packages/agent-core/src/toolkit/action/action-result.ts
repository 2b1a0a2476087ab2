import type { Readable } from 'node:stream';

/** Headers added to the HTTP response of an action by `resultBuilder.setHeader`. */
export interface ActionResultHeaders {
  responseHeaders?: Record<string, string>;
}

/** The action succeeded; `invalidated` lists collections the UI should refresh. */
export interface SuccessActionResult extends ActionResultHeaders {
  type: 'Success';
  message: string;
  html?: string;
  invalidated: Set<string>;
}

/** The action failed with a message shown to the user. */
export interface ErrorActionResult extends ActionResultHeaders {
  type: 'Error';
  message: string;
  html?: string;
}

/** The front end should call a webhook. */
export interface WebhookActionResult extends ActionResultHeaders {
  type: 'Webhook';
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  body: unknown;
}

/** The action returns a file to download (needs `generateFile: true`). */
export interface FileActionResult extends ActionResultHeaders {
  type: 'File';
  stream: Readable;
  name: string;
  mimeType: string;
}

/** The front end should navigate to `path`. */
export interface RedirectActionResult extends ActionResultHeaders {
  type: 'Redirect';
  path: string;
}

/** What executing an action produces. */
export type ActionResult =
  | SuccessActionResult
  | ErrorActionResult
  | WebhookActionResult
  | FileActionResult
  | RedirectActionResult;
