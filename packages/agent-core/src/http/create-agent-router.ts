import express, { type RequestHandler, type Router } from 'express';

import type { AgentServices } from '../platform/agent-services';
import { sessionCheck, sessionCheckOptions } from './auth/authenticate';
import { createErrorHandler, createErrorTranslator } from './errors/error-handler';
import { ipWhitelistGuard } from './ip-whitelist/ip-whitelist-guard';
import { bodyMiddleware, bodyStep, entryMiddleware, entrySteps } from './pipeline/entry';
import { healthcheck } from './pipeline/healthcheck';
import { notFound } from './pipeline/not-found';
import { EXPRESS_ROUTES, RouteTable } from './pipeline/route-table';
import { mountAuthenticationRoutes } from './routes/authentication';
import { mountActionRoutes } from './actions/action-routes';
import { mountInternalRoutes } from './capabilities/capabilities-route';
import { mountApiChartRoutes } from './charts/api-chart-routes';
import { mountNativeQueryRoute } from './charts/native-query-route';
import { mountStatsRoute } from './charts/stats-route';
import { mountRecordRoutes, serveCount, serveGet, serveList } from './routes/records';
import { mountRelationRoutes } from './routes/relations';
import { createHttpContext, type HttpContext } from './request/http-context';
import { AgentPipeline, type PipelineStages } from './agent-pipeline';

/**
 * The agent's REST interface (agent-http-protocol.md) as one middleware, served under
 * `services.options.prefix`: {@link createAgentPipeline} mounted on an express application.
 *
 * @example
 * const app = express();
 * app.use(createAgentRouter(services)); // serves /forest, /forest/orders, ...
 */
export function createAgentRouter(services: AgentServices): RequestHandler {
  return createAgentPipeline(services).middleware;
}

/**
 * The agent's request pipeline (`agent-pipeline.ts`). The stages run in the order of §1.5, which
 * decides which status wins, except that the body is read only once the caller is authenticated:
 * CORS (an allow-list), access log, public routes, authentication routes (the login route reads
 * its small body itself), session check, IP whitelist, body parsing, private routes, then the
 * plain-text 404 and the error translator. Its route table serves lists, counts and gets on
 * node's request and response; the other routes are express's ({@link createExpressAgentRouter}),
 * after the same stages, built from the same functions.
 */
export function createAgentPipeline(services: AgentServices): AgentPipeline {
  const { options } = services;
  const stages = pipelineStages(services);
  const context = createHttpContext(services);
  const mountPath = normalizePrefix(options.prefix);
  const routes = new RouteTable(mountPath)
    // The GET routes with two segments that express serves ahead of the data routes.
    .add('GET', '/_charts/:chart', EXPRESS_ROUTES)
    .add('GET', '/authentication/callback', EXPRESS_ROUTES)
    // `count` wins over an id (§2).
    .add('GET', '/:collection/count', (request, response, [name]) =>
      serveCount(context, request, response, name as string),
    )
    .add('GET', '/:collection/:id', (request, response, [name, id]) =>
      serveGet(context, request, response, name as string, id as string),
    )
    .add('GET', '/:collection', (request, response, [name]) =>
      serveList(context, request, response, name as string),
    );
  return new AgentPipeline(routes, expressRoutes(services, stages, context, mountPath), stages);
}

/**
 * Every route of the agent through express's routers (the reference the pipeline's table is
 * tested against).
 */
export function createExpressAgentRouter(services: AgentServices): Router {
  return expressRoutes(
    services,
    pipelineStages(services),
    createHttpContext(services),
    normalizePrefix(services.options.prefix),
  );
}

/** The stages of §1.5 of one pipeline, shared by its table and its express routes. */
function pipelineStages(services: AgentServices): PipelineStages {
  const { options, logger } = services;
  return {
    entry: entrySteps(logger, options),
    checkSession: sessionCheck(sessionCheckOptions(services)),
    ipWhitelist: services.ipWhitelist,
    readBody: bodyStep(),
    translateError: createErrorTranslator(logger),
  };
}

function expressRoutes(
  services: AgentServices,
  stages: PipelineStages,
  context: HttpContext,
  mountPath: string,
): Router {
  const { options, logger } = services;
  const mounted = express.Router({ caseSensitive: true, strict: false });
  mounted.use(entryMiddleware(stages.entry));

  mounted.get('/', healthcheck());
  mountAuthenticationRoutes(mounted, services.authentication, options.authSecret);

  const { checkSession } = stages;
  mounted.use((request, _response, next) => {
    checkSession(request);
    next();
  });
  if (services.ipWhitelist) mounted.use(ipWhitelistGuard(services.ipWhitelist));
  // Bodies are read only for authenticated callers.
  mounted.use(bodyMiddleware());

  mountInternalRoutes(mounted, context);
  mountNativeQueryRoute(mounted, context);
  mountStatsRoute(mounted, context);
  mountApiChartRoutes(mounted, context);
  mountActionRoutes(mounted, context);
  mountRecordRoutes(mounted, context);
  mountRelationRoutes(mounted, context);

  mounted.use(notFound());
  mounted.use(createErrorHandler(logger));

  const root = express.Router({ caseSensitive: true });
  root.use(mountPath, mounted);
  return root;
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
