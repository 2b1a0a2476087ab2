import type { RequestHandler } from 'express';

import type { AgentPipeline, Next, ToExpress } from '../http/agent-pipeline';
import { sendJson } from '../http/pipeline/send-json';
import type { HttpRequest, HttpResponse } from '../http/request/node-http';

/**
 * Holds the agent's current pipeline, which `restart()` replaces at runtime: the listening
 * socket and the host application never notice. Every mount serves requests through
 * {@link serve}. Without a pipeline (before start, after stop), requests under the prefix get a
 * JSON 503 and others pass on. It counts the requests in flight so `stop()` can let them finish.
 */
export class RouterSlot {
  private pipeline: AgentPipeline | null = null;
  private inFlight = 0;
  private readonly drained = new Set<() => void>();

  constructor(private readonly prefix: string) {}

  /** The middleware of `mountOnExpress` (stable for the agent's whole life). */
  readonly handler: RequestHandler = (request, response, next) => {
    this.serve(request, response, next, this.express as ToExpress);
  };

  /**
   * The current pipeline's origin routes (the MCP server's), then its own, for a mount whose
   * request objects express has set up (the standalone server's origin application calls it).
   */
  readonly express: RequestHandler = (request, response, next) => {
    if (this.pipeline) this.pipeline.express(request, response, next);
    else next();
  };

  /**
   * Serves one request through the current pipeline, counted in flight once; `toExpress` is how
   * the mount runs the pipeline's origin routes, written for express.
   */
  serve(request: HttpRequest, response: HttpResponse, next: Next, toExpress: ToExpress): void {
    const pipeline = this.pipeline;
    if (pipeline) {
      this.inFlight += 1;
      // A response closes once: one shared listener, no closure or once() wrapper per request.
      response.on('close', this.onClose);
      pipeline.serve(request, response, next, toExpress);
      return;
    }
    const path = (request.url ?? '').split('?', 1)[0] as string;
    if (path !== this.prefix && !path.startsWith(`${this.prefix}/`)) {
      next();
      return;
    }
    sendJson(
      response,
      {
        errors: [
          {
            name: 'ServiceUnavailableError',
            detail: 'The agent is not running: it is starting or has stopped.',
            status: 503,
          },
        ],
      },
      503,
    );
  }

  /**
   * Answers a request that no route of the agent took on a server of its own (JSON:API 404), or
   * the error that ended it.
   */
  answerUnserved(request: HttpRequest, response: HttpResponse, error?: unknown): void {
    if (this.pipeline) {
      this.pipeline.answerUnserved(request, response, error);
      return;
    }
    sendJson(
      response,
      { errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }] },
      404,
    );
  }

  /** Serves `pipeline` from now on; `null` stops serving new requests. */
  set(pipeline: AgentPipeline | null): void {
    this.pipeline = pipeline;
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
