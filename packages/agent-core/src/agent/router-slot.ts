import type { NextFunction, Request, RequestHandler, Response } from 'express';

import { HOT_ROUTES, type RouterWithHotRoutes } from '../http/create-agent-router';
import type { HttpRequest, HttpResponse } from '../http/request/node-http';

/**
 * The one handler the agent gives to express. It forwards to the current router, which
 * `restart()` replaces at runtime: the listening socket and the host application never notice.
 * Without a router (before start, after stop), requests under the prefix get a JSON 503 and
 * others pass to the host application. It counts the requests in flight so `stop()` can let
 * them finish.
 */
export class RouterSlot {
  private router: RequestHandler | null = null;
  private inFlight = 0;
  private readonly drained = new Set<() => void>();

  constructor(private readonly prefix: string) {}

  /** The handler to mount (stable for the agent's whole life). */
  readonly handler: RequestHandler = (request: Request, response: Response, next: NextFunction) => {
    if (this.router) {
      this.inFlight += 1;
      // A response closes once: one shared listener, no closure or once() wrapper per request.
      response.on('close', this.onClose);
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

  /**
   * For a server that owns the whole request (the standalone server): serves a list, count or
   * get-one request through the current router's hot routes, counted in flight like any other,
   * and returns `true`; returns `false`, having done nothing, for every other request (or when
   * the router has no hot routes: wrapped by the AI proxy or MCP, or not running). The request
   * and response may be node's own objects: the hot routes do not use express's API.
   */
  readonly serveHot = (request: HttpRequest, response: HttpResponse): boolean => {
    const hot = (this.router as RouterWithHotRoutes | null)?.[HOT_ROUTES];
    if (!hot || !hot(request, response)) return false;
    this.inFlight += 1;
    response.on('close', this.onClose);
    return true;
  };

  /** Serves `router` from now on; `null` stops serving new requests. */
  set(router: RequestHandler | null): void {
    this.router = router;
  }

  /** Resolves when no request is in flight any more, or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    let done!: () => void;
    await new Promise<void>((resolve) => {
      done = resolve;
      this.drained.add(done);
      timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
    this.drained.delete(done);
  }

  private readonly onClose = (): void => this.finished();

  private finished(): void {
    this.inFlight -= 1;
    if (this.inFlight > 0) return;
    for (const resolve of this.drained) resolve();
  }
}
