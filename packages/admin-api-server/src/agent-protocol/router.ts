import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { jsonBody } from '../http/body';
import { publishRecordChange, readRecordChange } from './record-changes';
import type { AuthenticatedEnvironment } from '../store/model/environment-secrets';
import type { ServerContext } from '../context';
import { ingestActivityLogs } from '../store/activity-log-ingestion';
import { findTeamWithScopes, projectRoles, projectUsers } from '../store/agent-permissions';
import {
  declaredCollections,
  hasSchemaHash,
  storedSchema,
  storeSchema,
} from '../store/environment-schema';
import { accessTokenUser, renderingUser } from '../auth/rendering-user';
import { ApiError } from '../errors';
import { readId } from '../validation/input-rules';
import { readActivityLogBatch } from './activity-log-batch';
import { activityLogRequestsRouter } from './activity-log-requests';
import { agentErrorHandler } from './agent-error-handler';
import { authenticateEnvironment } from '../auth/authenticate-environment';
import { developerEnvironment, environmentDocument, isDeveloperLookup } from './environment-lookup';
import { environmentPermissions } from '@canopy/platform-protocol';
import type { EventHub } from './event-hub';
import { readSchemaDocument } from './schema-document';
import { renderingFilterSegments } from '../store/console-layouts';
import { dashboardStats } from '../store/dashboards';
import { agentSessionRevocations } from '../store/platform-events';

/** Size limit of agent bodies: schemas of large data sources exceed the public API's 1 MB. */
export const AGENT_BODY_LIMIT = '20mb';

/**
 * The agent-facing platform protocol (docs/platform-protocol.md sections 1–7 and 11): schema
 * hash check and upload, IP whitelist, permissions built from the model, server-sent events,
 * environment description and activity-log ingestion. Every call is authenticated by the
 * environment's env secret (`GET /liana/environment` also by a canopy-cloud login); errors answer `{"errors": [{"detail"}]}`, the shape agents read.
 */
export function agentProtocolRouter(ctx: ServerContext, events: EventHub): Router {
  const router = express.Router();
  // Schemas of large data sources exceed the public API's 1 MB limit.
  const json = jsonBody(AGENT_BODY_LIMIT);
  // A log batch is checked log by log (a NUL refuses that log only, so the agent's queue moves on).
  const logBatchJson = jsonBody(AGENT_BODY_LIMIT, { allowNul: true });
  const env = (request: Request) => authenticateEnvironment(ctx.knex, request);
  // Routes with a body check the env secret before the body is read.
  const authenticated: RequestHandler = async (request, response, next) => {
    response.locals.environment = await env(request);
    next();
  };
  const environmentOf = (response: Response) =>
    response.locals.environment as AuthenticatedEnvironment;

  router.post('/forest/apimaps/hashcheck', authenticated, json, async (request, response) => {
    const environment = environmentOf(response);
    const hash = (request.body as { schemaFileHash?: unknown } | undefined)?.schemaFileHash;
    if (typeof hash !== 'string' || hash === '') {
      throw new ApiError(400, 'invalid_body', 'schemaFileHash must be a non-empty string.');
    }
    response.json({ sendSchema: !(await hasSchemaHash(ctx.knex, environment.id, hash)) });
  });

  router.post('/forest/apimaps', authenticated, json, async (request, response) => {
    const environment = environmentOf(response);
    const { hash, collections } = readSchemaDocument(request.body);
    await storeSchema(ctx.knex, environment, { hash, document: request.body, collections });
    response.json({});
  });

  // The MCP server downloads the schema the platform holds (platform protocol section 10): the
  // JSON:API document the agent uploaded, as it was uploaded.
  router.get('/liana/forest-schema', async (request, response) => {
    const environment = await env(request);
    const document = await storedSchema(ctx.knex, environment.id);
    if (document === undefined) {
      throw new ApiError(
        404,
        'route_not_found',
        'No schema has been uploaded for this environment yet; start its agent once.',
      );
    }
    response.json(document);
  });

  // The sign-outs an agent must honour (platform protocol section 7, revoke-agent-sessions): read
  // at start and whenever its event stream reopens, since events may have been missed.
  router.get('/liana/v1/agent-session-revocations', async (request, response) => {
    const environment = await env(request);
    response.json({
      revocations: await agentSessionRevocations(ctx.knex, environment.projectId),
    });
  });

  router.get('/liana/v1/ip-whitelist-rules', async (request, response) => {
    const environment = await env(request);
    const project = await ctx
      .knex('projects')
      .where({ id: environment.projectId })
      .first('ip_whitelist_rules');
    const rules = project?.ip_whitelist_rules ?? null;
    response.json({
      data: {
        type: 'ip-whitelist-rules',
        id: String(environment.projectId),
        attributes: { use_ip_whitelist: rules !== null, rules: rules ?? [] },
      },
    });
  });

  router.get('/liana/v4/subscribe-to-events', async (request, response) => {
    const environment = await env(request);
    events.subscribe(response, environment.projectId);
  });

  router.get('/liana/v4/permissions/environment', async (request, response) => {
    const environment = await env(request);
    if (environment.type === 'development') {
      response.json(true);
      return;
    }
    const [collections, roles] = await Promise.all([
      declaredCollections(ctx.knex, environment.id),
      projectRoles(ctx.knex, environment.projectId),
    ]);
    response.json(environmentPermissions(collections, roles));
  });

  router.get('/liana/v4/permissions/users', async (request, response) => {
    const environment = await env(request);
    response.json(await projectUsers(ctx.knex, environment.projectId));
  });

  router.get('/liana/v4/permissions/renderings/:renderingId', async (request, response) => {
    const environment = await env(request);
    const id = readId(request.params.renderingId);
    const team =
      id !== undefined ? await findTeamWithScopes(ctx.knex, environment.projectId, id) : undefined;
    if (!team) {
      throw new ApiError(
        404,
        'rendering_not_found',
        `Rendering ${String(request.params.renderingId)} does not exist in this project (rendering ids are team ids).`,
      );
    }
    const collections: Record<string, unknown> = {};
    // The segments built in the Console for the team (platform protocol 5.3, `filterSegments`).
    const filterSegments = await renderingFilterSegments(ctx.knex, environment.id, team.id);
    for (const name of new Set([...Object.keys(team.scopes), ...Object.keys(filterSegments)])) {
      const segments = filterSegments[name];
      collections[name] = {
        scope: team.scopes[name] ?? null,
        segments: [],
        liveQuerySegments: [],
        ...(segments ? { filterSegments: segments } : {}),
      };
    }
    // The team's charts, and the charts built in the console on the environment's dashboard.
    const stats = [...team.charts, ...(await dashboardStats(ctx.knex, environment.id))];
    response.json({ team: { id: team.id, name: team.name }, collections, stats });
  });

  // Agents (MCP) call it with the env secret; canopy-cloud with the env secret and a developer's
  // access token, checked against the project's members.
  router.get('/liana/environment', async (request, response) => {
    const environment = isDeveloperLookup(request)
      ? await developerEnvironment(ctx.knex, request)
      : await env(request);
    response.json(await environmentDocument(ctx.knex, environment));
  });

  router.get('/liana/v2/renderings/:renderingId/authorization', async (request, response) => {
    const environment = await env(request);
    const accessToken = request.get('forest-token');
    if (!accessToken) {
      throw new ApiError(
        401,
        'unauthorized',
        'The forest-token header must carry the user access token.',
      );
    }
    const userId = await accessTokenUser(
      ctx.knex,
      ctx.config.signingKeys,
      environment,
      accessToken,
    );
    const user = await renderingUser(
      ctx.knex,
      environment,
      userId,
      readId(request.params.renderingId) ?? 0,
    );
    response.json({ data: { type: 'users', id: String(user.id), attributes: user.attributes } });
  });

  router.post('/liana/v1/activity-logs', authenticated, logBatchJson, async (request, response) => {
    const environment = environmentOf(response);
    response.json(
      await ingestActivityLogs(ctx.knex, environment, readActivityLogBatch(request.body)),
    );
  });

  // A write the agent made, for the Console streams of the environment (docs/platform-protocol.md §7.1).
  router.post('/liana/v1/record-changes', authenticated, json, async (request, response) => {
    await publishRecordChange(ctx.knex, environmentOf(response), readRecordChange(request.body));
    response.status(204).end();
  });

  router.use(activityLogRequestsRouter(ctx));
  router.use(agentErrorHandler(ctx));
  return router;
}
