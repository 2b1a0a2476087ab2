import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';

const SECRET_PARAMETER = /token|secret|password|authorization|code|state|signature|key/i;

/** The request URL with the values of secret-looking query parameters replaced by `***`. */
export function redactUrl(url: string): string {
  const index = url.indexOf('?');
  if (index < 0) return url;
  // Nothing secret-looking anywhere in the query: no parameter name can match either.
  if (!SECRET_PARAMETER.test(url.slice(index + 1))) return url;
  const parameters = new URLSearchParams(url.slice(index + 1));
  for (const key of new Set(parameters.keys())) {
    if (SECRET_PARAMETER.test(key)) parameters.set(key, '***');
  }
  const query = parameters.toString();
  return query ? `${url.slice(0, index)}?${query}` : url.slice(0, index);
}

/** Starts timing one request; its line is logged when the answer is finished. */
export type AccessLogStep = (request: IncomingMessage, response: ServerResponse) => void;

const STARTED = Symbol('canopyAccessLogStarted');
type Timed = ServerResponse & { [STARTED]?: bigint };

/**
 * The access logger (§1.5 step 4): one line per answered request, `Info` for successes and
 * client errors, with the duration. Headers are never logged (tokens, cookies), and secret-looking
 * query parameters are redacted. `level` is the agent's `loggerLevel`: above `Info` there is no
 * step at all (`null`), so requests pass without any logging work. One `finish` listener is
 * shared by every request (no closure per request).
 */
export function accessLogStep(logger: Logger, level: LoggerLevel = 'Info'): AccessLogStep | null {
  // Above Info the lines would be dropped: do not time, redact or format them at all.
  if (level === 'Warn' || level === 'Error') return null;
  function finished(this: Timed): void {
    const milliseconds = Number(process.hrtime.bigint() - (this[STARTED] as bigint)) / 1e6;
    const request = this.req as IncomingMessage & { originalUrl?: string };
    logger(
      'Info',
      `[${this.statusCode}] ${request.method} ${redactUrl(request.originalUrl ?? request.url ?? '')} - ${milliseconds.toFixed(1)}ms`,
    );
  }
  return (_request, response) => {
    (response as Timed)[STARTED] = process.hrtime.bigint();
    // A response finishes once: a plain listener, without once()'s wrapper.
    response.on('finish', finished);
  };
}
