import type { RequestHandler } from 'express';

import type { IpWhitelist } from '../platform/agent-services';
import type { SessionCheck } from './auth/authenticate';
import type { ErrorTranslator } from './errors/error-handler';
import { checkClientIp } from './ip-whitelist/ip-whitelist-guard';
import { METHODS_WITH_BODY } from './pipeline/body-parser';
import { correlate } from './pipeline/correlation';
import type { BodyStep, EntrySteps } from './pipeline/entry';
import type { RouteMatch, RouteTable } from './pipeline/route-table';
import { sendJson, sendPlainText } from './pipeline/send-json';
import type { HttpRequest, HttpResponse } from './request/node-http';

/** Called when the agent does not serve a request (outside its paths), or with an error. */
export type Next = (error?: unknown) => void;

/**
 * How a mount runs the origin routes (the MCP server's, written for express) on a request:
 * `mountOnExpress` calls them on the objects express gave it; the standalone server hands node's
 * objects to an express application first (which sets express's request and response API up).
 */
export type ToExpress = (request: HttpRequest, response: HttpResponse, next: Next) => void;

/** The stages of agent-http-protocol §1.5, each built once per pipeline. */
export interface PipelineStages {
  readonly entry: EntrySteps;
  readonly checkSession: SessionCheck;
  readonly ipWhitelist: IpWhitelist | null;
  readonly readBody: BodyStep;
  readonly translateError: ErrorTranslator;
}

/** Routes served at the origin root, ahead of the agent's (the MCP server's). */
interface OriginRoutes {
  /** Whether a request is for them (they pass the ones they do not serve on, to the agent's). */
  readonly claims: (request: HttpRequest) => boolean;
  readonly handler: RequestHandler;
}

/**
 * The agent's one request pipeline (docs/architecture.md, "One request pipeline"): every route of
 * the agent is in its {@link RouteTable} and served on node's request and response. A request under
 * the mount point runs CORS, the correlation id and the access log; a public route (healthcheck, login) is served
 * then; any other request runs the session check, the IP whitelist and the body (methods with a
 * body) in that order, then its route, or the plain-text 404 when no route takes it. Errors go to
 * the error translator. Features add their routes to the table before the pipeline serves, so
 * none can hide another's. The only express left is the origin routes' (the MCP server's).
 */
export class AgentPipeline {
  private readonly origin: OriginRoutes[] = [];

  constructor(
    /** The routes under the mount point. */
    readonly routes: RouteTable,
    private readonly stages: PipelineStages,
  ) {}

  /**
   * Adds routes served at the origin root before the agent's (the MCP and OAuth routes, written
   * for express: the MCP SDK's transport and the OAuth handlers read express's request and
   * response API): a request they `claim` goes to `handler` through express; what it passes on
   * goes to the agent's routes.
   */
  addOriginRoutes(claims: OriginRoutes['claims'], handler: RequestHandler): void {
    this.origin.push({ claims, handler });
  }

  /** The origin routes then the agent's, on objects express has set up. */
  readonly express: RequestHandler = (request, response, next) => {
    this.runOrigin(0, request, response, next);
  };

  /** The pipeline as one middleware of an express application (`mountOnExpress`, tests). */
  readonly middleware: RequestHandler = (request, response, next) => {
    this.serve(request, response, next, this.express as unknown as ToExpress);
  };

  /**
   * Serves one request: through the table, or, for a path the origin routes claim, through
   * `toExpress` (without origin routes, it is never called).
   */
  serve(request: HttpRequest, response: HttpResponse, next: Next, toExpress: ToExpress): void {
    for (const origin of this.origin) {
      if (origin.claims(request)) {
        toExpress(request, response, next);
        return;
      }
    }
    this.serveAgent(request, response, next);
  }

  /** Answers a request no route took, outside the mount point, on a server of the agent's own. */
  answerUnserved(request: HttpRequest, response: HttpResponse, error?: unknown): void {
    if (error === undefined || error === null) {
      sendJson(
        response,
        { errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }] },
        404,
      );
    } else {
      this.stages.translateError(error, request, response);
    }
  }

  /** Serves a request through the table (`next` when it is outside the mount point). */
  private serveAgent(request: HttpRequest, response: HttpResponse, next: Next): void {
    const match = this.routes.match(request);
    if (!match) {
      next();
      return;
    }
    const { entry } = this.stages;
    if (entry.cors(request, response)) return;
    correlate(request, response);
    entry.accessLog?.(request, response);
    void this.runRoute(match, request, response);
  }

  private async runRoute(
    match: RouteMatch,
    request: HttpRequest,
    response: HttpResponse,
  ): Promise<void> {
    const { checkSession, ipWhitelist, readBody, translateError } = this.stages;
    try {
      if (!match.public) {
        checkSession(request);
        if (ipWhitelist) checkClientIp(ipWhitelist, request);
        if (
          METHODS_WITH_BODY.has(request.method as string) &&
          (await readBody(request, response))
        ) {
          return;
        }
      }
      if (match.error) throw match.error;
      if (match.handler) await match.handler(request, response, match.params);
      else sendPlainText(response, 404, 'Not Found');
    } catch (error) {
      translateError(error, request, response);
    }
  }

  private runOrigin(index: number, request: HttpRequest, response: HttpResponse, next: Next): void {
    const origin = this.origin[index];
    if (!origin) {
      this.serveAgent(request, response, next);
      return;
    }
    (origin.handler as unknown as ToExpress)(request, response, (error?: unknown) =>
      error === undefined || error === null || error === 'route' || error === 'router'
        ? this.runOrigin(index + 1, request, response, next)
        : next(error),
    );
  }
}
