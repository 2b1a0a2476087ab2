import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { parseActivityLogBatch } from './activity-logs';
import { EventStream } from './event-stream';
import { mountOAuthRoutes, type SandboxOAuth } from './oauth';
import { mountApprovalRoutes, type SandboxActionApproval } from './action-approvals';
import { environmentPermissions } from './permissions';
import { schemaFromDocument } from './schema-document';
import { TEST_RENDERING_ID, TEST_ROLE, TEST_TEAM, TEST_USER } from './test-user';
import type {
  ActivityLogEntry,
  IpRule,
  PermissionOverrides,
  PlainConditionTree,
  SandboxRecordChange,
  SandboxRole,
  SandboxSchema,
  SandboxUser,
} from './types';

/** Options of {@link createServerSandbox}. */
export interface ServerSandboxOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Interval of the `heartbeat` server-sent event; default 15 s. */
  heartbeatMs?: number;
  /** Public URL of the agent, answered by `GET /liana/environment` (MCP); default none. */
  agentUrl?: string;
}

/** What the sandbox knows of one environment (one env secret). */
interface Environment {
  schema?: SandboxSchema;
  schemaHash?: string;
  schemaUploads: number;
  overrides: PermissionOverrides;
  activityLogs: ActivityLogEntry[];
  /** Size of each activity-log batch received, in order. */
  activityLogBatches: number[];
  logIds: Set<string>;
  recordChanges: SandboxRecordChange[];
  events: EventStream;
}

/** A local server imitating the Canopy platform for tests. See {@link createServerSandbox}. */
export interface ServerSandbox {
  /** The port it listens on. */
  readonly port: number;
  /** Base URL, for `CANOPY_SERVER_URL` and the test client's `serverUrl`. */
  readonly url: string;
  /** Stops the server and ends every event stream. */
  close(): Promise<void>;

  // The setters below resolve once the change is in effect and the matching `refresh-*` event
  // (if any) was sent to the connected agents: always `await` them. (In memory this happens at
  // once; a sandbox backed by a real platform server needs a round trip.)

  /** Replaces the users (default: the test user); connected agents drop their users cache. */
  setUsers(users: SandboxUser[]): Promise<void>;
  /** Replaces the roles (default: role 1, every right); connected agents drop their permissions. */
  setRoles(roles: SandboxRole[]): Promise<void>;
  /** Replaces every permission override of an environment, as the test client does. */
  setPermissionOverrides(overrides: PermissionOverrides, envSecret?: string): Promise<void>;
  /** Sets (or with `null` removes) the row-level scope of a collection for a rendering. */
  setScope(
    collection: string,
    scope: PlainConditionTree | null,
    renderingId?: number,
  ): Promise<void>;
  /** Sets the team a rendering belongs to (default `{id: 1, name: 'admin'}`). */
  setTeam(team: { id: number; name: string }, renderingId?: number): Promise<void>;
  /**
   * Replaces the segments built in the Console for a collection of a rendering (its team): served
   * as `filterSegments` (platform protocol §5.3), `[]` removes them; agents refresh the rendering.
   */
  setFilterSegments(
    collection: string,
    segments: { name: string; filter: PlainConditionTree }[],
    renderingId?: number,
  ): Promise<void>;
  /** Turns the IP whitelist on with these rules, or off with `null`. */
  setIpWhitelist(rules: IpRule[] | null): Promise<void>;

  /** The schema an agent uploaded or the test client posted, if any. */
  schema(envSecret?: string): SandboxSchema | undefined;
  /** How many times an agent uploaded its schema (`POST /forest/apimaps`). */
  schemaUploads(envSecret?: string): number;
  /** The activity logs received, oldest first. */
  activityLogs(envSecret?: string): ActivityLogEntry[];
  /** The size of every activity-log batch received (retries included), oldest first. */
  activityLogBatches(envSecret?: string): number[];
  /** Resolves once `predicate` holds for the activity logs received, or rejects after `timeoutMs`. */
  waitForActivityLogs(
    predicate: (logs: ActivityLogEntry[]) => boolean,
    options?: { envSecret?: string; timeoutMs?: number },
  ): Promise<ActivityLogEntry[]>;
  /** The record changes received (`POST /liana/v1/record-changes`), oldest first. */
  recordChanges(envSecret?: string): SandboxRecordChange[];
  /** Resolves once `predicate` holds for the record changes received, or rejects after `timeoutMs`. */
  waitForRecordChanges(
    predicate: (changes: SandboxRecordChange[]) => boolean,
    options?: { envSecret?: string; timeoutMs?: number },
  ): Promise<SandboxRecordChange[]>;
  /**
   * Makes `POST /liana/v1/record-changes` answer `status` (e.g. 503: the platform is down) until
   * called again with `null`; what it refuses is not recorded.
   */
  failRecordChanges(status: number | null): void;
  /** How many agents hold an open event stream. */
  subscribers(envSecret?: string): number;
  /**
   * The platform side of the MCP OAuth flow: who the login page logs in (default the test user
   * on rendering 1), platform token lifetimes, and the clients MCP clients registered.
   */
  readonly oauth: SandboxOAuth;
  /** The approval requests MCP servers filed, oldest first. */
  actionApprovals(): SandboxActionApproval[];
}

const ENV_SECRET = /^[0-9a-f]{64}$/;

/** Polls `read` every 20 ms until `predicate` holds; rejects with `failure` after `timeoutMs`. */
async function waitUntil<T>(
  read: () => T,
  predicate: (value: T) => boolean,
  timeoutMs: number,
  failure: (value: T) => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (predicate(value)) return value;
    if (Date.now() > deadline) throw new Error(failure(value));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts a local server that answers the platform endpoints a Canopy agent calls, from memory:
 * schema hash check and upload, IP whitelist, environment/users/rendering permissions derived from
 * the uploaded schema (everything allowed by default), server-sent events that tell agents to
 * drop their caches when a test changes users, roles, overrides or scopes, OpenID discovery and
 * registration, and activity-log ingestion that tests can read back.
 *
 * @param port port on 127.0.0.1; `0` picks a free one (see `sandbox.port`).
 * @example
 * const sandbox = await createServerSandbox(0);
 * process.env.CANOPY_SERVER_URL = sandbox.url;
 * // start the agent, run the tests...
 * await sandbox.close();
 */
export async function createServerSandbox(
  port = 0,
  options: ServerSandboxOptions = {},
): Promise<ServerSandbox> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const environments = new Map<string, Environment>();
  let users: SandboxUser[] = [{ ...TEST_USER }];
  let roles: SandboxRole[] = [{ ...TEST_ROLE }];
  let ipRules: IpRule[] | null = null;
  const renderings = new Map<
    number,
    {
      team: { id: number; name: string };
      scopes: Map<string, PlainConditionTree>;
      filterSegments: Map<string, { id: string; name: string; filter: PlainConditionTree }[]>;
    }
  >();

  const environment = (secret: string): Environment => {
    let found = environments.get(secret);
    if (!found) {
      found = {
        schemaUploads: 0,
        overrides: {},
        activityLogs: [],
        activityLogBatches: [],
        logIds: new Set(),
        recordChanges: [],
        events: new EventStream(heartbeatMs),
      };
      environments.set(secret, found);
    }
    return found;
  };
  const pick = (secret: string | undefined): Environment | undefined => {
    if (secret) return environments.get(secret);
    if (environments.size > 1) {
      throw new Error('Several agents talk to this sandbox: pass the env secret you mean.');
    }
    return environments.values().next().value;
  };
  const rendering = (id: number) => {
    let found = renderings.get(id);
    if (!found) {
      found = { team: { ...TEST_TEAM }, scopes: new Map(), filterSegments: new Map() };
      renderings.set(id, found);
    }
    return found;
  };
  const broadcast = (event: string, data = '{}') => {
    for (const env of environments.values()) env.events.send(event, data);
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '20mb' }));

  const secretOf = (request: Request): string => {
    const header = request.get('forest-secret-key');
    const bearer = request.get('authorization')?.match(/^Bearer (.+)$/i)?.[1];
    const secret = header ?? bearer;
    if (!secret || !ENV_SECRET.test(secret)) {
      throw new SandboxError(
        401,
        'The forest-secret-key header must carry a 64-character hex env secret.',
      );
    }
    return secret;
  };
  const issuer = (request: Request) => `${request.protocol}://${request.get('host')}`;

  app.post('/forest/apimaps/hashcheck', (request, response) => {
    const env = environment(secretOf(request));
    const hash = request.body?.schemaFileHash;
    if (typeof hash !== 'string' || hash === '') {
      throw new SandboxError(400, 'schemaFileHash must be a non-empty string.');
    }
    response.json({ sendSchema: env.schemaHash !== hash });
  });

  app.post('/forest/apimaps', (request, response) => {
    const env = environment(secretOf(request));
    let parsed: ReturnType<typeof schemaFromDocument>;
    try {
      parsed = schemaFromDocument(request.body);
    } catch (error) {
      throw new SandboxError(400, `Invalid schema upload: ${(error as Error).message}.`);
    }
    env.schema = parsed.schema;
    env.schemaHash = parsed.hash;
    env.schemaUploads += 1;
    response.status(200).json({});
  });

  app.get('/liana/v1/ip-whitelist-rules', (request, response) => {
    secretOf(request);
    response.json({
      data: {
        type: 'ip-whitelist-rules',
        id: '1',
        attributes: { use_ip_whitelist: ipRules !== null, rules: ipRules ?? [] },
      },
    });
  });

  // No one signs out of the sandbox: no agent session is ever revoked.
  app.get('/liana/v1/agent-session-revocations', (request, response) => {
    secretOf(request);
    response.json({ revocations: [] });
  });

  app.get('/liana/v4/subscribe-to-events', (request, response) => {
    environment(secretOf(request)).events.subscribe(response);
  });

  app.get('/liana/v4/permissions/environment', (request, response) => {
    const env = environment(secretOf(request));
    if (!env.schema) {
      throw new SandboxError(
        400,
        'No schema is known for this env secret yet: start the agent against the sandbox or create the test client first.',
      );
    }
    response.json(environmentPermissions(env.schema, roles, env.overrides));
  });

  app.get('/liana/v4/permissions/users', (request, response) => {
    secretOf(request);
    response.json(
      users.map((user) => ({
        ...user,
        tags: user.tags ?? {},
        fullName: `${user.firstName} ${user.lastName}`,
      })),
    );
  });

  app.get('/liana/v4/permissions/renderings/:renderingId', (request, response) => {
    secretOf(request);
    const id = Number(request.params.renderingId);
    if (!Number.isInteger(id)) throw new SandboxError(400, 'The rendering id must be an integer.');
    const { team, scopes, filterSegments } = rendering(id);
    const collections: Record<string, unknown> = {};
    for (const name of new Set([...scopes.keys(), ...filterSegments.keys()])) {
      const segments = filterSegments.get(name);
      collections[name] = {
        scope: scopes.get(name) ?? null,
        segments: [],
        liveQuerySegments: [],
        ...(segments ? { filterSegments: segments } : {}),
      };
    }
    response.json({ team, collections, stats: [] });
  });

  app.get('/liana/environment', (request, response) => {
    secretOf(request);
    response.json({
      data: {
        type: 'environments',
        id: '1',
        attributes: { name: 'Sandbox', api_endpoint: options.agentUrl ?? null },
      },
    });
  });

  app.post('/liana/v1/activity-logs', (request, response) => {
    const env = environment(secretOf(request));
    let logs: ActivityLogEntry[];
    try {
      logs = parseActivityLogBatch(request.body);
    } catch (error) {
      throw new SandboxError(400, `Invalid activity-log batch: ${(error as Error).message}.`);
    }
    env.activityLogBatches.push(logs.length);
    let accepted = 0;
    for (const log of logs) {
      if (env.logIds.has(log.id)) continue;
      env.logIds.add(log.id);
      env.activityLogs.push(log);
      accepted += 1;
    }
    response.json({ accepted, duplicates: logs.length - accepted });
  });

  let recordChangeFailure: number | null = null;
  app.post('/liana/v1/record-changes', (request, response) => {
    const env = environment(secretOf(request));
    if (recordChangeFailure !== null) throw new SandboxError(recordChangeFailure, 'Unavailable.');
    const body = request.body as Partial<SandboxRecordChange> | undefined;
    const valid =
      typeof body === 'object' &&
      body !== null &&
      typeof body.collection === 'string' &&
      typeof body.recordId === 'string' &&
      body.recordId !== '' &&
      Number.isInteger(body.userId) &&
      (body.userId as number) >= 1 &&
      ['create', 'update', 'delete'].includes(body.operation ?? '') &&
      Array.isArray(body.fields);
    if (!valid) throw new SandboxError(400, 'Invalid record change.');
    env.recordChanges.push(body as SandboxRecordChange);
    response.status(204).end();
  });

  app.get('/oidc/.well-known/openid-configuration', (request, response) => {
    const base = issuer(request);
    response.json({
      issuer: base,
      authorization_endpoint: `${base}/oidc/auth`,
      token_endpoint: `${base}/oidc/token`,
      registration_endpoint: `${base}/oidc/reg`,
      jwks_uri: `${base}/oidc/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  app.post('/oidc/reg', (request, response) => {
    secretOf(request);
    response
      .status(201)
      .json({ client_id: 'canopy-sandbox-client', token_endpoint_auth_method: 'none' });
  });

  // Sandbox-only routes used by the test client.
  app.post('/agent-schema', (request, response) => {
    const env = environment(secretOf(request));
    const body = request.body as SandboxSchema | undefined;
    if (!body || !Array.isArray(body.collections)) {
      throw new SandboxError(400, 'The agent schema must be an object with a collections array.');
    }
    env.schema = body;
    response.json({});
  });

  app.post('/permission-override', (request, response) => {
    const env = environment(secretOf(request));
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
      throw new SandboxError(
        400,
        'Permission overrides must be an object keyed by collection name.',
      );
    }
    env.overrides = request.body as PermissionOverrides;
    env.events.send('refresh-roles', '{}');
    response.json({});
  });

  const oauth = mountOAuthRoutes(app, {
    users: () => users,
    teamOf: (renderingId) => rendering(renderingId).team.name,
    checkSecret: (request) => void secretOf(request),
  });
  const approvals = mountApprovalRoutes(app, oauth.verifyAccessToken);

  app.use((request, _response, next) => {
    next(new SandboxError(404, `Sandbox: no mock for ${request.method} ${request.originalUrl}`));
  });

  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    const status =
      error instanceof SandboxError
        ? error.status
        : (error as { type?: string }).type === 'entity.parse.failed'
          ? 400
          : 500;
    const detail =
      error instanceof SandboxError ? error.message : 'The request body is not valid JSON.';
    response
      .status(status)
      .json({ errors: [{ detail: status === 500 ? 'Sandbox error' : detail }] });
  });

  const host = options.host ?? '127.0.0.1';
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.once('error', reject);
  });
  const actualPort = (server.address() as AddressInfo).port;

  const sandbox: ServerSandbox = {
    port: actualPort,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    async close() {
      for (const env of environments.values()) env.events.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
    async setUsers(next) {
      users = next.map((user) => ({ ...user }));
      broadcast('refresh-users');
    },
    async setRoles(next) {
      roles = next.map((role) => ({ ...role }));
      broadcast('refresh-roles');
    },
    async setPermissionOverrides(overrides, envSecret) {
      const env = envSecret ? environment(envSecret) : pick(undefined);
      if (!env) throw new Error('No agent has contacted the sandbox yet: pass its env secret.');
      env.overrides = overrides;
      env.events.send('refresh-roles', '{}');
    },
    async setScope(collection, scope, renderingId = TEST_RENDERING_ID) {
      const { scopes } = rendering(renderingId);
      if (scope) scopes.set(collection, scope);
      else scopes.delete(collection);
      broadcast('refresh-renderings', JSON.stringify({ renderingIds: [renderingId] }));
    },
    async setFilterSegments(collection, segments, renderingId = TEST_RENDERING_ID) {
      const { filterSegments } = rendering(renderingId);
      if (segments.length === 0) filterSegments.delete(collection);
      else {
        filterSegments.set(
          collection,
          segments.map(({ name, filter }) => ({ id: `${collection}.${name}`, name, filter })),
        );
      }
      broadcast('refresh-renderings', JSON.stringify({ renderingIds: [renderingId] }));
    },
    async setTeam(team, renderingId = TEST_RENDERING_ID) {
      rendering(renderingId).team = { ...team };
      broadcast('refresh-renderings', JSON.stringify({ renderingIds: [renderingId] }));
    },
    async setIpWhitelist(rules) {
      ipRules = rules ? [...rules] : null;
    },
    schema: (envSecret) => pick(envSecret)?.schema,
    schemaUploads: (envSecret) => pick(envSecret)?.schemaUploads ?? 0,
    activityLogs: (envSecret) => [...(pick(envSecret)?.activityLogs ?? [])],
    activityLogBatches: (envSecret) => [...(pick(envSecret)?.activityLogBatches ?? [])],
    recordChanges: (envSecret) => [...(pick(envSecret)?.recordChanges ?? [])],
    failRecordChanges(status) {
      recordChangeFailure = status;
    },
    waitForRecordChanges: (predicate, { envSecret, timeoutMs = 5_000 } = {}) =>
      waitUntil(
        () => sandbox.recordChanges(envSecret),
        predicate,
        timeoutMs,
        (changes) =>
          `Record changes did not arrive within ${timeoutMs} ms; received ${JSON.stringify(changes)}`,
      ),
    subscribers: (envSecret) => pick(envSecret)?.events.size ?? 0,
    oauth,
    actionApprovals: () => approvals.map((approval) => ({ ...approval })),
    waitForActivityLogs: (predicate, { envSecret, timeoutMs = 5_000 } = {}) =>
      waitUntil(
        () => sandbox.activityLogs(envSecret),
        predicate,
        timeoutMs,
        (logs) =>
          `Activity logs did not arrive within ${timeoutMs} ms; received ${logs.length}: ` +
          JSON.stringify(logs.map(({ action, collectionName }) => ({ action, collectionName }))),
      ),
  };
  return sandbox;
}
