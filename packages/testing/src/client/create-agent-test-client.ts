import type { HistoryEntry } from '@canopy/platform-protocol';
import jwt from 'jsonwebtoken';

import { TEST_RENDERING_ID, TEST_ROLE, TEST_TEAM, TEST_USER } from '../sandbox/test-user';
import type { ActionRights, CollectionRights, PermissionOverrides } from '../sandbox/types';
import { AgentHttp, AgentHttpError } from './agent-http';
import { chartValue, CollectionClient } from './collection-client';
import { readSchemaFile, type SchemaFile } from './schema-file';

/** Options of {@link createAgentTestClient} (platform protocol §14.4). */
export interface AgentTestClientOptions {
  /** The env secret of the agent under test (keys its data in the sandbox). */
  agentEnvSecret: string;
  /** The auth secret of the agent under test (signs the test user's token). */
  agentAuthSecret: string;
  /** Base URL of the running agent, without `/forest`. */
  agentUrl: string;
  /** Base URL of the sandbox. */
  serverUrl: string;
  /** Path of the agent's schema file (written by the agent at start in development). */
  agentSchemaPath: string;
  /** Route prefix of the agent; default `/forest`. */
  prefix?: string;
  /** Time zone sent with every request; default `Europe/Paris`. */
  timezone?: string;
}

/** A pre-authenticated client of a running agent. See {@link createAgentTestClient}. */
export interface AgentTestClient {
  /** One collection: list, count, getOne, create, update, delete, CSV, relations, actions, charts. */
  collection(name: string): CollectionClient;
  /** A data-source chart declared in code (`POST /_charts/{chart}`): its value. */
  chart(name: string): Promise<unknown>;
  valueChart(name: string): Promise<unknown>;
  distributionChart(name: string): Promise<unknown>;
  percentageChart(name: string): Promise<unknown>;
  objectiveChart(name: string): Promise<unknown>;
  leaderboardChart(name: string): Promise<unknown>;
  timeBasedChart(name: string): Promise<unknown>;
  /** Narrows the rights of every role on a collection (other overrides are kept). */
  overrideCollectionPermission(collection: string, rights: CollectionRights): Promise<void>;
  /** Narrows the rights of every role on an action (other overrides are kept). */
  overrideActionPermission(collection: string, action: string, rights: ActionRights): Promise<void>;
  /** Drops every override. */
  clearPermissionOverride(): Promise<void>;
  /** The schema file the client read. */
  readonly schema: SchemaFile;
  /**
   * The record history of an agent started with `auditTrail` (`<prefix>/_audit-trail/…`): a
   * record's rows (newest first, paged), the record as it was at a time, the rows of a request.
   */
  readonly auditTrail: AuditTrailClient;
}

/** One history entry, as the agent's `_audit-trail` routes answer it (agent-http-protocol §13.1). */
export type AuditTrailRow = HistoryEntry;

/** Options of {@link AuditTrailClient.history}. */
export interface AuditTrailQuery {
  page?: { number?: number; size?: number };
  /** Oldest first (newest first by default). */
  oldestFirst?: boolean;
  userIds?: number[];
  startDate?: string;
  endDate?: string;
  fields?: string[];
  search?: string;
}

/** Reads the record history of the agent (see {@link AgentTestClient.auditTrail}). */
export interface AuditTrailClient {
  /** A record's entries; `total` counts those matching the query. */
  history(
    collection: string,
    id: string | number,
    query?: AuditTrailQuery,
  ): Promise<{ rows: AuditTrailRow[]; total: number }>;
  /** The record's values at `time` (`null` if it did not exist then). */
  state(
    collection: string,
    id: string | number,
    time: Date | string,
  ): Promise<Record<string, unknown> | null>;
  /**
   * The entries of one request (its `x-forest-correlation-id`) on one of its records, or with
   * `acrossRecords` (Canopy's agent) every entry of it the user may read.
   */
  correlation(
    correlationKey: string,
    record: { collection: string; recordId: string | number },
    options?: { acrossRecords?: boolean },
  ): Promise<AuditTrailRow[]>;
}

async function postToSandbox(serverUrl: string, envSecret: string, path: string, body: unknown) {
  const url = `${serverUrl.replace(/\/+$/, '')}${path}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'forest-secret-key': envSecret },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    throw new Error(`The sandbox at ${url} answered ${response.status}: ${await response.text()}`);
  }
}

/**
 * Connects to a running agent as the sandbox's test user, the way the admin front end does:
 * reads the agent's schema file, posts it to the sandbox (so the sandbox can derive permissions),
 * and signs the test user's session token with the agent's auth secret (HS256, one hour).
 *
 * @example
 * const client = await createAgentTestClient({
 *   agentEnvSecret: ENV_SECRET, agentAuthSecret: AUTH_SECRET,
 *   agentUrl: `http://127.0.0.1:${port}`, serverUrl: sandbox.url, agentSchemaPath: SCHEMA_PATH,
 * });
 * const paid = await client.collection('orders').list({
 *   filters: { field: 'status', operator: 'Equal', value: 'paid' },
 * });
 */
export async function createAgentTestClient(
  options: AgentTestClientOptions,
): Promise<AgentTestClient> {
  for (const key of [
    'agentEnvSecret',
    'agentAuthSecret',
    'agentUrl',
    'serverUrl',
    'agentSchemaPath',
  ] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') {
      throw new Error(`createAgentTestClient needs the option '${key}' (a non-empty string)`);
    }
  }
  const schema = await readSchemaFile(options.agentSchemaPath);
  await postToSandbox(options.serverUrl, options.agentEnvSecret, '/agent-schema', schema);
  const token = jwt.sign(
    {
      id: TEST_USER.id,
      email: TEST_USER.email,
      firstName: TEST_USER.firstName,
      first_name: TEST_USER.firstName,
      lastName: TEST_USER.lastName,
      last_name: TEST_USER.lastName,
      team: TEST_TEAM.name,
      role: TEST_ROLE.name,
      permissionLevel: TEST_USER.permissionLevel,
      permission_level: TEST_USER.permissionLevel,
      roleId: TEST_USER.roleId,
      role_id: TEST_USER.roleId,
      renderingId: TEST_RENDERING_ID,
      rendering_id: TEST_RENDERING_ID,
      tags: { ...TEST_USER.tags },
      // The agent accepts on its REST routes only tokens of this type and audience.
      typ: 'agent-session',
    },
    options.agentAuthSecret,
    { algorithm: 'HS256', expiresIn: '1h', audience: 'canopy-agent-rest', issuer: 'canopy-agent' },
  );
  const prefix = (options.prefix ?? '/forest').replace(/\/+$/, '');
  const http = new AgentHttp(options.agentUrl, token, options.timezone ?? 'Europe/Paris');
  let overrides: PermissionOverrides = {};
  const sendOverrides = () =>
    postToSandbox(options.serverUrl, options.agentEnvSecret, '/permission-override', overrides);
  const chart = async (name: string) =>
    chartValue(
      await http.json({ method: 'POST', path: `${prefix}/_charts/${encodeURIComponent(name)}` }),
    );

  const audit = `${prefix}/_audit-trail`;
  const auditTrail: AuditTrailClient = {
    async history(collection, id, query = {}) {
      const answer = await http.json<{ data: AuditTrailRow[]; meta: { count: number } }>({
        method: 'GET',
        path: `${audit}/${encodeURIComponent(collection)}/${encodeURIComponent(String(id))}`,
        query: {
          'page[number]': query.page?.number === undefined ? undefined : String(query.page.number),
          'page[size]': query.page?.size === undefined ? undefined : String(query.page.size),
          sort: query.oldestFirst ? 'timestamp' : undefined,
          userIds: query.userIds?.join(','),
          startDate: query.startDate,
          endDate: query.endDate,
          fields: query.fields?.join(','),
          search: query.search,
        },
      });
      return { rows: answer.data, total: answer.meta.count };
    },
    async state(collection, id, time) {
      try {
        const answer = await http.json<{ data: Record<string, unknown> }>({
          method: 'GET',
          path: `${audit}/${encodeURIComponent(collection)}/${encodeURIComponent(String(id))}/state`,
          query: { at: time instanceof Date ? time.toISOString() : time },
        });
        return answer.data;
      } catch (error) {
        if (error instanceof AgentHttpError && error.status === 404) return null;
        throw error;
      }
    },
    async correlation(correlationKey, record, options = {}) {
      const answer = await http.json<{ data: AuditTrailRow[] }>({
        method: 'GET',
        path: `${audit}/correlation/${encodeURIComponent(correlationKey)}`,
        query: {
          collection: record.collection,
          recordId: String(record.recordId),
          acrossRecords: options.acrossRecords ? 'true' : undefined,
        },
      });
      return answer.data;
    },
  };

  return {
    schema,
    auditTrail,
    collection: (name) => new CollectionClient(http, prefix, name, schema),
    chart,
    valueChart: chart,
    distributionChart: chart,
    percentageChart: chart,
    objectiveChart: chart,
    leaderboardChart: chart,
    timeBasedChart: chart,
    async overrideCollectionPermission(collection, rights) {
      const current = overrides[collection] ?? {};
      overrides = {
        ...overrides,
        [collection]: { ...current, collection: { ...current.collection, ...rights } },
      };
      await sendOverrides();
    },
    async overrideActionPermission(collection, action, rights) {
      const current = overrides[collection] ?? {};
      const actions = { ...current.actions, [action]: { ...current.actions?.[action], ...rights } };
      overrides = { ...overrides, [collection]: { ...current, actions } };
      await sendOverrides();
    },
    async clearPermissionOverride() {
      overrides = {};
      await sendOverrides();
    },
  };
}
