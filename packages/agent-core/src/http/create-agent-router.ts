import express, { type Router } from 'express';

import type { AgentServices } from '../platform/agent-services';
import { authenticate } from './auth/authenticate';
import { createErrorHandler } from './errors/error-handler';
import { ipWhitelistGuard } from './ip-whitelist/ip-whitelist-guard';
import { accessLog } from './pipeline/access-log';
import { bodyErrors, jsonBody } from './pipeline/body-parser';
import { cors } from './pipeline/cors';
import { healthcheck } from './pipeline/healthcheck';
import { notFound } from './pipeline/not-found';
import { mountAuthenticationRoutes } from './routes/authentication';
import { mountActionRoutes } from './actions/action-routes';
import { mountInternalRoutes } from './capabilities/capabilities-route';
import { mountApiChartRoutes } from './charts/api-chart-routes';
import { mountNativeQueryRoute } from './charts/native-query-route';
import { mountStatsRoute } from './charts/stats-route';
import { mountRecordRoutes } from './routes/records';
import { mountRelationRoutes } from './routes/relations';
import { createHttpContext } from './request/http-context';

/**
 * The agent's REST interface (agent-http-protocol.md), served under `services.options.prefix`.
 * The stages run in the order of §1.5, which decides which status wins: CORS, body parsing,
 * public routes, authentication routes, session check, IP whitelist, private routes, then the
 * plain-text 404 and the error translator.
 *
 * @example
 * const app = express();
 * app.use(createAgentRouter(services)); // serves /forest, /forest/orders, ...
 */
export function createAgentRouter(services: AgentServices): Router {
  const { options, logger } = services;
  const mounted = express.Router({ caseSensitive: true, strict: false });
  mounted.use(cors(options.corsOrigins));
  mounted.use(jsonBody());
  mounted.use(bodyErrors());
  mounted.use(accessLog(logger, options.loggerLevel));

  mounted.get('/', healthcheck());
  mountAuthenticationRoutes(mounted, services.authentication, options.authSecret);

  mounted.use(authenticate(options.authSecret));
  if (services.ipWhitelist) mounted.use(ipWhitelistGuard(services.ipWhitelist));

  const context = createHttpContext(services);
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
  root.use(normalizePrefix(options.prefix), mounted);
  return root;
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
