import express, { type Express } from 'express';
import type { EventHub } from './agent-protocol/event-hub';
import type { ConsoleHub } from './console-live/hub';
import { liveRouter } from './routes/live';
import {
  AGENT_PROTOCOL_PREFIXES,
  agentErrorHandler,
  agentNotFoundHandler,
} from './agent-protocol/agent-error-handler';
import { agentProtocolRouter } from './agent-protocol/router';
import { agentOriginsSource } from './console/agent-origins';
import { consoleRouter } from './console/router';
import { mcpOAuthRouter } from './mcp-oauth/router';
import { oidcRouter } from './oidc/router';
import { platformUiRouter } from './http/platform-page';
import { errorHandler, notFoundHandler } from './errors';
import type { ServerContext } from './context';
import { rejectNulInUrl } from './http/body';
import { securityHeaders } from './http/security-headers';
import { requestLogger } from './logging/logger';
import { accountRouter } from './routes/account';
import { actionApprovalsRouter } from './routes/action-approvals';
import { OIDC_PATH } from './oidc/provider';
import { activityLogsRouter } from './routes/activity-logs';
import { adminLogsRouter } from './routes/admin-logs';
import { applicationTokensRouter } from './routes/application-tokens';
import { collectionsRouter } from './routes/collections';
import { managementRouter } from './routes/management';
import { meRouter } from './routes/me';
import { notesRouter } from './routes/notes';
import { dashboardsRouter } from './routes/dashboards';
import { consoleLayoutsRouter } from './routes/console-layouts';
import { operationsRouter } from './routes/operations';
import { buildOpenApiDocument } from './openapi/document';

/**
 * The express application: request id and logging, security headers, no NUL in the URL, the
 * agent-facing platform protocol (its own error shape), the public routes, then the single
 * error handler. Database, config and rate limiter come from `ctx`. Every request, the public
 * API's list included, goes through this one pipeline: its request log, security headers, ETag
 * (express's default weak ETag) and error answer come from the same code for every route.
 */
export function createApp(ctx: ServerContext, events: EventHub, live: ConsoleHub): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('query parser', 'simple');
  app.use(requestLogger(ctx.logger));
  app.use(securityHeaders());
  app.use(rejectNulInUrl());
  // Bodies are read by each route after it authenticated the caller (src/http/body.ts).
  // The public API first, its most requested read (the activity-log list) leading: a request walks
  // the routers in order until one matches, and no path below is also a path above.
  app.use(activityLogsRouter(ctx));
  app.use(adminLogsRouter(ctx));
  app.use(notesRouter(ctx));
  app.use(dashboardsRouter(ctx));
  app.use(consoleLayoutsRouter(ctx));
  app.use(collectionsRouter(ctx));
  app.use(applicationTokensRouter(ctx));
  app.use(managementRouter(ctx));
  app.use(accountRouter(ctx));
  app.use(actionApprovalsRouter(ctx));
  app.use(meRouter(ctx));
  app.use(liveRouter(ctx, live));
  app.use(operationsRouter(ctx.knex, buildOpenApiDocument()));
  app.use(agentProtocolRouter(ctx, events));
  app.use(platformUiRouter());
  app.use(oidcRouter(ctx));
  app.use(['/forest', '/liana', OIDC_PATH], agentErrorHandler(ctx));
  app.use(mcpOAuthRouter(ctx));
  // Last, so it shadows no route: agents read errors as {"errors": [{"detail"}]}.
  app.use(AGENT_PROTOCOL_PREFIXES, agentNotFoundHandler(), agentErrorHandler(ctx));
  app.use(
    consoleRouter({
      ...(ctx.config.console ?? { enabled: true }),
      agentOrigins: agentOriginsSource(ctx.knex),
    }),
  );
  app.use(notFoundHandler());
  app.use(errorHandler({ embeddedStore: ctx.config.database.kind === 'embedded' }));
  return app;
}
