import express, { type Express } from 'express';
import type { EventHub } from './agent-protocol/event-hub';
import { agentErrorHandler } from './agent-protocol/agent-error-handler';
import { agentProtocolRouter } from './agent-protocol/router';
import { consoleRouter } from './console/router';
import { mcpOAuthRouter } from './mcp-oauth/router';
import { oidcRouter } from './oidc/router';
import helmet from 'helmet';
import { errorHandler, notFoundHandler } from './errors';
import type { ServerContext } from './http/context';
import { requestLogger } from './logging/logger';
import { activityLogsRouter } from './routes/activity-logs';
import { adminLogsRouter } from './routes/admin-logs';
import { applicationTokensRouter } from './routes/application-tokens';
import { collectionsRouter } from './routes/collections';
import { managementRouter } from './routes/management';
import { notesRouter } from './routes/notes';
import { operationsRouter } from './routes/operations';

/**
 * The express application: request id and logging, security headers, JSON bodies (1 MB), the
 * agent-facing platform protocol (its own error shape), the public routes, then the single
 * error handler. Database, config and rate limiter come from `ctx`.
 */
export function createApp(ctx: ServerContext, events: EventHub): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('query parser', 'simple');
  app.use(requestLogger(ctx.logger));
  app.use(helmet());
  // Before the 1 MB JSON parser: schema uploads are larger.
  app.use(agentProtocolRouter(ctx, events));
  app.use(oidcRouter(ctx), agentErrorHandler(ctx));
  app.use(mcpOAuthRouter(ctx));
  app.use(express.json({ limit: '1mb' }));
  app.use(operationsRouter(ctx.knex));
  app.use(activityLogsRouter(ctx));
  app.use(adminLogsRouter(ctx));
  app.use(notesRouter(ctx));
  app.use(collectionsRouter(ctx));
  app.use(applicationTokensRouter(ctx));
  app.use(managementRouter(ctx));
  app.use(consoleRouter(ctx.config.console ?? { enabled: true }));
  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}
