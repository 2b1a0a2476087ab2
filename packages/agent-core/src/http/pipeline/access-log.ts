import type { RequestHandler } from 'express';

import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';

const SECRET_PARAMETER = /token|secret|password|authorization|code|state|signature|key/i;

/** The request URL with the values of secret-looking query parameters replaced by `***`. */
export function redactUrl(url: string): string {
  const index = url.indexOf('?');
  if (index < 0) return url;
  const parameters = new URLSearchParams(url.slice(index + 1));
  for (const key of new Set(parameters.keys())) {
    if (SECRET_PARAMETER.test(key)) parameters.set(key, '***');
  }
  const query = parameters.toString();
  return query ? `${url.slice(0, index)}?${query}` : url.slice(0, index);
}

/**
 * The access logger (§1.5 step 4): one line per answered request, `Info` for successes and
 * client errors, with the duration. Headers are never logged (tokens, cookies), and secret-looking
 * query parameters are redacted. `level` is the agent's `loggerLevel`: above `Info`, requests
 * pass through without any logging work.
 */
export function accessLog(logger: Logger, level: LoggerLevel = 'Info'): RequestHandler {
  // Above Info the lines would be dropped: do not time, redact or format them at all.
  if (level === 'Warn' || level === 'Error') return (_request, _response, next) => next();
  return (request, response, next) => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
      logger(
        'Info',
        `[${response.statusCode}] ${request.method} ${redactUrl(request.originalUrl)} - ${milliseconds.toFixed(1)}ms`,
      );
    });
    next();
  };
}
