import type { RequestHandler } from 'express';

import type { AgentServices } from '../platform/agent-services';
import { addActionRoutes } from './actions/action-routes';
import { sessionCheck, sessionCheckOptions } from './auth/authenticate';
import { addInternalRoutes } from './capabilities/capabilities-route';
import { addApiChartRoutes } from './charts/api-chart-routes';
import { addNativeQueryRoute } from './charts/native-query-route';
import { addStatsRoute } from './charts/stats-route';
import { createErrorTranslator } from './errors/error-handler';
import { bodyStep, entrySteps } from './pipeline/entry';
import { healthcheck } from './pipeline/healthcheck';
import { RouteTable } from './pipeline/route-table';
import { createHttpContext } from './request/http-context';
import { addAuthenticationRoutes } from './routes/authentication';
import { addRecordRoutes } from './routes/records';
import { addRelationRoutes } from './routes/relations';
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
 * The agent's request pipeline (`agent-pipeline.ts`): one route table holding every route, served
 * on node's request and response. The stages run in the order of §1.5, which decides which status
 * wins, except that the body is read only once the caller is authenticated: CORS (an allow-list),
 * access log, public routes (the healthcheck and the authentication routes; the login route reads
 * its small body itself), session check, IP whitelist, body parsing, private routes, then the
 * plain-text 404 and the error translator. The routes are added in the order express's routers
 * used to match them: the charts' and actions' literal first segments before the data routes'
 * `/:collection`, `count` before an id.
 */
export function createAgentPipeline(services: AgentServices): AgentPipeline {
  const { options } = services;
  const context = createHttpContext(services);
  const routes = new RouteTable(normalizePrefix(options.prefix)).add('GET', '/', healthcheck, {
    public: true,
  });
  addAuthenticationRoutes(routes, services.authentication, options.authSecret);
  addInternalRoutes(routes, context);
  addNativeQueryRoute(routes, context);
  addStatsRoute(routes, context);
  addApiChartRoutes(routes, context);
  addActionRoutes(routes, context);
  addRecordRoutes(routes, context);
  addRelationRoutes(routes, context);
  return new AgentPipeline(routes, pipelineStages(services));
}

/** The stages of §1.5 of one pipeline. */
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

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
