import express, { type RequestHandler, type Router } from 'express';

import type { AgentServices } from '../platform/agent-services';
import { sessionCheck, sessionCheckOptions } from './auth/authenticate';
import { createErrorHandler, createErrorTranslator } from './errors/error-handler';
import { ipWhitelistGuard } from './ip-whitelist/ip-whitelist-guard';
import { bodyMiddleware, entryMiddleware, entrySteps } from './pipeline/entry';
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
import { createHotRoutes, type HotRoutes } from './hot-routes';

/**
 * The hot-route dispatch of a router built by {@link createAgentRouter}, for a server that owns
 * the whole request (the agent's standalone server) to call before express's application and
 * router: it takes a request whose prototypes are express's, answers it and returns `true`, or
 * returns `false` having done nothing. Its `next` is never called (the error translator answers).
 */
export const HOT_ROUTES = Symbol('canopyHotRoutes');

/** A router that may carry its hot-route dispatch. */
export type RouterWithHotRoutes = RequestHandler & { [HOT_ROUTES]?: HotRoutes };

/**
 * The agent's REST interface (agent-http-protocol.md), served under `services.options.prefix`.
 * The stages run in the order of §1.5, which decides which status wins, except that the body is
 * read only once the caller is authenticated: CORS (an allow-list), access log, public routes,
 * authentication routes (the login route reads its small body itself), session check, IP
 * whitelist, body parsing, private routes, then the plain-text 404 and the error translator. The hot data routes (list, count and get one) are
 * served by a precompiled dispatch in front of express's routers, running the same stages in the
 * same order (`hot-routes.ts`); every other request goes through the express pipeline.
 *
 * @example
 * const app = express();
 * app.use(createAgentRouter(services)); // serves /forest, /forest/orders, ...
 */
export function createAgentRouter(services: AgentServices): Router {
  return buildAgentRouter(services, true);
}

/**
 * {@link createAgentRouter}, optionally without the hot-route dispatch (`withHotRoutes: false`:
 * every request through express's routers, the reference the hot routes are tested against).
 */
export function buildAgentRouter(services: AgentServices, withHotRoutes: boolean): Router {
  const { options, logger } = services;
  const entry = entrySteps(logger, options);
  const checkSession = sessionCheck(sessionCheckOptions(services));
  const errorHandler = createErrorHandler(logger);
  const mounted = express.Router({ caseSensitive: true, strict: false });
  mounted.use(entryMiddleware(entry));

  mounted.get('/', healthcheck());
  mountAuthenticationRoutes(mounted, services.authentication, options.authSecret);

  mounted.use((request, _response, next) => {
    checkSession(request);
    next();
  });
  if (services.ipWhitelist) mounted.use(ipWhitelistGuard(services.ipWhitelist));
  // Bodies are read only for authenticated callers.
  mounted.use(bodyMiddleware());

  const context = createHttpContext(services);
  mountInternalRoutes(mounted, context);
  mountNativeQueryRoute(mounted, context);
  mountStatsRoute(mounted, context);
  mountApiChartRoutes(mounted, context);
  mountActionRoutes(mounted, context);
  mountRecordRoutes(mounted, context);
  mountRelationRoutes(mounted, context);

  mounted.use(notFound());
  mounted.use(errorHandler);

  const mountPath = normalizePrefix(options.prefix);
  const root = express.Router({ caseSensitive: true });
  root.use(mountPath, mounted);
  if (withHotRoutes) {
    const hot = createHotRoutes(mountPath, context, {
      entry,
      checkSession,
      ipWhitelist: services.ipWhitelist,
      translateError: createErrorTranslator(logger),
    });
    // A router is a function that calls its own `handle`: the hot routes go in front of it, so
    // they cost no router layer and no `next` closure, and the router stays a Router.
    const routed = root as Router & { handle: RequestHandler };
    const dispatch = routed.handle;
    routed.handle = function handle(request, response, next) {
      if (!hot(request, response)) dispatch.call(this, request, response, next);
    };
    (root as RouterWithHotRoutes)[HOT_ROUTES] = hot;
  }
  return root;
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
