import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import pino, { type Logger } from 'pino';

/**
 * The server's structured (JSON) logger, on standard output. `Authorization` never reaches a log
 * line. Lines are written asynchronously (pino's asynchronous destination): a request does not
 * wait for its log line's `write`; pino flushes what is pending when the process exits.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'canopy-admin-api' },
      // Defence in depth: nothing logs headers today, and a token must never reach a log if it did.
      redact: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'],
    },
    pino.destination({ dest: 1, sync: false }),
  );
}

/**
 * Gives each request an id (the caller's `Request-Id` when it is a short token, else a UUID),
 * returns it in `Request-Id`, gives the request a child logger carrying it, and logs one line per
 * finished request.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['request-id'];
    const requestId =
      typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    const started = process.hrtime.bigint();
    const log = logger.child({ requestId });
    res.setHeader('Request-Id', requestId);
    res.on('finish', () => {
      log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    req.requestId = requestId;
    req.log = log;
    next();
  };
}
