import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The one handler the agent gives to express. It forwards to the current router, which
 * `restart()` replaces at runtime: the listening socket and the host application never notice.
 * Without a router (before start, after stop), requests under the prefix get a JSON 503 and
 * others pass to the host application.
 */
export class RouterSlot {
  private router: RequestHandler | null = null;

  constructor(private readonly prefix: string) {}

  /** The handler to mount (stable for the agent's whole life). */
  readonly handler: RequestHandler = (request: Request, response: Response, next: NextFunction) => {
    if (this.router) {
      this.router(request, response, next);
      return;
    }
    if (request.path !== this.prefix && !request.path.startsWith(`${this.prefix}/`)) {
      next();
      return;
    }
    response.status(503).json({
      errors: [
        {
          name: 'ServiceUnavailableError',
          detail: 'The agent is not running: it is starting or has stopped.',
          status: 503,
        },
      ],
    });
  };

  /** Serves `router` from now on; `null` stops serving. */
  set(router: RequestHandler | null): void {
    this.router = router;
  }
}
