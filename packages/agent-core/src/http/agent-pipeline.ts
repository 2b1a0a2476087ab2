import type { RequestHandler } from 'express';

import type { IpWhitelist } from '../platform/agent-services';
import type { SessionCheck } from './auth/authenticate';
import type { ErrorTranslator } from './errors/error-handler';
import { checkClientIp } from './ip-whitelist/ip-whitelist-guard';
import { METHODS_WITH_BODY } from './pipeline/body-parser';
import type { BodyStep, EntrySteps } from './pipeline/entry';
import { EXPRESS_ROUTES, type RouteTable, type TableRouteHandler } from './pipeline/route-table';
import { sendJson } from './pipeline/send-json';
import type { HttpRequest, HttpResponse } from './request/node-http';

/** Called when the agent does not serve a request (outside its paths), or with an error. */
export type Next = (error?: unknown) => void;

/**
 * How a mount runs the pipeline's express routes on a request: `mountOnExpress` calls them on
 * the objects express gave it; the standalone server hands node's objects to its express
 * application first (which sets express's request and response API up on them).
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
 * The agent's one request pipeline (docs/architecture.md, "Fast paths"). Every route is in its
 * {@link RouteTable}, in match order: the routes served on node's request and response (lists,
 * counts, gets, the audit trail, the AI proxy) and the paths it leaves to the express routes
 * (`express`: the healthcheck, login, every other data, action and chart route, then the plain
 * 404 and the error translator). A request the table serves runs CORS and the access log, the
 * session check, the IP whitelist and the body (methods with a body) in that order, then its
 * route; its errors go to the error translator. Features add their routes to the table before
 * the pipeline serves, so none can hide another's.
 */
export class AgentPipeline {
  private readonly origin: OriginRoutes[] = [];

  constructor(
    /** The routes under the mount point. */
    readonly routes: RouteTable,
    /** The routes express serves: everything the table does not, with the same stages. */
    private readonly agentRoutes: RequestHandler,
    /** `null`: a pipeline of express routes only (a stand-in in the lifecycle's tests). */
    private readonly stages: PipelineStages | null,
  ) {}

  /**
   * Adds routes served at the origin root before the agent's (the MCP and OAuth routes): a
   * request they `claim` goes to `handler` through express; what it passes on goes to the agent's
   * express routes.
   */
  addOriginRoutes(claims: OriginRoutes['claims'], handler: RequestHandler): void {
    this.origin.push({ claims, handler });
  }

  /** The pipeline's express routes: the origin routes, then the agent's. */
  readonly express: RequestHandler = (request, response, next) => {
    this.runExpress(0, request, response, next);
  };

  /** The pipeline as one middleware of an express application (`mountOnExpress`, tests). */
  readonly middleware: RequestHandler = (request, response, next) => {
    this.serve(request, response, next, this.express as unknown as ToExpress);
  };

  /** Serves one request: through a route of the table, or through {@link express} via `toExpress`. */
  serve(request: HttpRequest, response: HttpResponse, next: Next, toExpress: ToExpress): void {
    for (const origin of this.origin) {
      if (origin.claims(request)) {
        toExpress(request, response, next);
        return;
      }
    }
    const { stages } = this;
    const match = stages ? this.routes.match(request) : null;
    if (!stages || !match || match.target === EXPRESS_ROUTES) {
      toExpress(request, response, next);
      return;
    }
    if (stages.entry.cors(request, response)) return;
    stages.entry.accessLog?.(request, response);
    void this.runRoute(stages, match.target, match.params, request, response);
  }

  /** Answers a request no route took, outside the mount point, on a server of the agent's own. */
  answerUnserved(request: HttpRequest, response: HttpResponse, error?: unknown): void {
    if (error === undefined || error === null) {
      sendJson(
        response,
        { errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }] },
        404,
      );
    } else if (this.stages) {
      this.stages.translateError(error, request, response);
    } else {
      sendJson(
        response,
        { errors: [{ name: 'Error', detail: 'Unexpected error', status: 500 }] },
        500,
      );
    }
  }

  private async runRoute(
    stages: PipelineStages,
    route: TableRouteHandler,
    params: readonly string[],
    request: HttpRequest,
    response: HttpResponse,
  ): Promise<void> {
    const { checkSession, ipWhitelist, readBody, translateError } = stages;
    try {
      checkSession(request);
      if (ipWhitelist) checkClientIp(ipWhitelist, request);
      if (METHODS_WITH_BODY.has(request.method as string) && (await readBody(request, response))) {
        return;
      }
      await route(request, response, params);
    } catch (error) {
      translateError(error, request, response);
    }
  }

  private runExpress(
    index: number,
    request: HttpRequest,
    response: HttpResponse,
    next: Next,
  ): void {
    const origin = this.origin[index];
    const handler = origin ? origin.handler : this.agentRoutes;
    const pass = origin
      ? (error?: unknown) =>
          error === undefined || error === null || error === 'route' || error === 'router'
            ? this.runExpress(index + 1, request, response, next)
            : next(error)
      : next;
    (handler as unknown as ToExpress)(request, response, pass);
  }
}
