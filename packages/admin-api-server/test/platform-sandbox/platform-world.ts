import { createHash } from 'node:crypto';
import { isActivityLogAction } from '@canopy/platform-protocol';
import type {
  ActionRights,
  ActivityLogEntry,
  IpRule,
  PermissionOverrides,
  PlainConditionTree,
  SandboxRecordChange,
  SandboxRole,
  SandboxSchema,
  SandboxUser,
} from '@canopy/testing';
import {
  schemaFromDocument,
  TEST_RENDERING_ID,
  TEST_ROLE,
  TEST_TEAM,
  TEST_USER,
} from '@canopy/testing';
import { ADMIN_ROLE_NAME, createUser, signSessionToken } from '../../src';
import { DEFAULT_TEAM_NAME, hashEnvironmentSecret } from '../../src/internals';
import { storeSchema } from '../../src/store/environment-schema';
import { ACTION_CONDITIONS, COLLECTION_RIGHTS, type RoleRights } from '@canopy/platform-protocol';
import { TEST_KEYS } from '../helpers/test-server';
import type { PooledServer } from './server-pool';

/** What the sandbox knows of one env secret: its environment on the server, and what it saw. */
export interface WorldEnvironment {
  secret: string;
  id: number;
  name: string;
  overrides: PermissionOverrides;
  schema?: SandboxSchema;
  schemaUploads: number;
  activityLogBatches: number[];
  activityLogs: ActivityLogEntry[];
  /** The record changes the server accepted from the agent (platform protocol §7.1). */
  recordChanges: SandboxRecordChange[];
}

/** A team of the sandbox (rendering id = team id): its scopes and Console segments. */
interface WorldTeam {
  name: string;
  scopes: Record<string, PlainConditionTree>;
  segments: Record<string, { name: string; filter: PlainConditionTree }[]>;
}

/** Waits for a server-sent event on the agents' streams; see {@link PlatformWorld.change}. */
/**
 * Starts counting the `event`s relayed on each open agent stream; the function it returns
 * resolves once every stream relayed `count` of them (or closed).
 */
export type EventExpectation = (event: string) => (count: number) => Promise<void>;

const PROJECT = 'Sandbox';
/** How often admin-api-server's event hub polls for new events (src/agent-protocol/event-hub.ts). */
const EVENT_POLL_MS = 250;
/** The user the adapter manages the project as; hidden from the agents' users list. */
const ACTOR_ID = 1_000_000;
const ACTOR_EMAIL = 'platform-sandbox-admin@canopy.invalid';
/** Id sequences the adapter steers so that ids are the ones the tests chose. */
type Sequence = 'users_id_seq' | 'roles_id_seq' | 'teams_id_seq';

const CONDITIONS = Object.keys(ACTION_CONDITIONS);

/**
 * The platform state of one sandbox, kept in admin-api-server: one project ("Sandbox") on a
 * schema reset when the sandbox first needs it, every change made through the management API
 * (as an admin member the adapter creates with id 1 000 000), every read through the public API
 * or the store. Ids the tests choose (users, roles, renderings = teams) are kept by steering the
 * id sequences before the management call that creates the row: a test-only seam, like the env
 * secrets, whose hashes are written into the environments the management API created.
 */
export class PlatformWorld {
  readonly environments = new Map<string, WorldEnvironment>();
  private readonly creating = new Map<string, Promise<WorldEnvironment>>();
  private environmentCount = 0;
  private quietAt = 0;
  private session = '';
  private applicationToken = '';
  private users: SandboxUser[] = [];
  private roles: SandboxRole[] = [];
  /** Roles on the server by id (sandbox roles, and placeholders for role ids users name). */
  private serverRoles = new Map<number, string>();
  /** Teams on the server by id (= rendering id), with their scopes and Console segments. */
  private teams = new Map<number, WorldTeam>();
  private projectId = 0;

  private constructor(
    readonly pooled: PooledServer,
    private readonly agentUrl: string | undefined,
    private readonly expectEvent: EventExpectation,
  ) {}

  /** Resets the server's schema and builds the sandbox's default state through the API. */
  static async create(
    pooled: PooledServer,
    agentUrl: string | undefined,
    expectEvent: EventExpectation,
  ): Promise<PlatformWorld> {
    const world = new PlatformWorld(pooled, agentUrl, expectEvent);
    await world.reset();
    return world;
  }

  get actorId(): number {
    return ACTOR_ID;
  }

  private get knex() {
    return this.pooled.server.knex;
  }

  private async reset(): Promise<void> {
    const knex = this.knex;
    // Rows go (projects take their environments, teams, roles, members, logs and events with
    // them); sequences stay, except where the adapter steers them to the ids the tests chose.
    // Event ids must keep growing anyway: the server's poller remembers the ids it sent.
    await knex.transaction(async (trx) => {
      await trx('projects').delete();
      await trx('users').delete();
      await trx('mcp_oauth_clients').delete();
    });
    await this.steer('users_id_seq', ACTOR_ID);
    await createUser(knex, { email: ACTOR_EMAIL, username: 'Platform sandbox admin' });
    this.session = signSessionToken(TEST_KEYS, {
      userId: ACTOR_ID,
      sso: false,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    // The project comes with its default team and the "Admin" role, the actor holding both:
    // they become rendering 1 (team "admin") and role 1.
    await this.steer('teams_id_seq', TEST_RENDERING_ID);
    await this.steer('roles_id_seq', TEST_ROLE.id);
    const project = await this.api('POST', '/v1/projects', { name: PROJECT });
    this.projectId = project.id;
    await this.api('PATCH', this.path(`/teams/${DEFAULT_TEAM_NAME}`), { name: TEST_TEAM.name });
    this.teams.set(TEST_RENDERING_ID, { name: TEST_TEAM.name, scopes: {}, segments: {} });
    this.serverRoles.set(TEST_ROLE.id, ADMIN_ROLE_NAME);
    this.roles = [{ ...TEST_ROLE }];
    await this.applyUsers([{ ...TEST_USER }], []);
    this.quietAt = Date.now() + EVENT_POLL_MS + 50;
  }

  /**
   * Resolves once the events of the set-up went out (the server polls its event table): an agent
   * stream opened earlier would receive them, which no in-memory sandbox sends.
   */
  async quiet(): Promise<void> {
    const wait = this.quietAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** An application token reading activity logs, issued on first use. */
  private async activityLogsToken(): Promise<string> {
    if (!this.applicationToken) {
      const { token } = await this.api('POST', this.path('/application-tokens'), {
        name: 'platform sandbox',
        scopes: ['activity_logs:read'],
      });
      this.applicationToken = token;
    }
    return this.applicationToken;
  }

  /** The environment of an env secret, created (with that secret) on first use. */
  environment(secret: string): Promise<WorldEnvironment> {
    const known = this.environments.get(secret);
    if (known) return Promise.resolve(known);
    // An agent's first calls run in parallel: they share one creation.
    let creating = this.creating.get(secret);
    if (!creating) {
      creating = this.createEnvironment(secret).finally(() => this.creating.delete(secret));
      this.creating.set(secret, creating);
    }
    return creating;
  }

  private async createEnvironment(secret: string): Promise<WorldEnvironment> {
    this.environmentCount += 1;
    const name = `Environment ${this.environmentCount}`;
    const { environment } = await this.api('POST', this.path('/environments'), {
      name,
      type: 'production',
      ...(this.agentUrl ? { apiEndpoint: this.agentUrl } : {}),
    });
    await this.knex('environments')
      .where({ id: environment.id })
      .update({ secret_hash: hashEnvironmentSecret(secret) });
    const created: WorldEnvironment = {
      secret,
      id: environment.id,
      name,
      overrides: {},
      schemaUploads: 0,
      activityLogBatches: [],
      activityLogs: [],
      recordChanges: [],
    };
    for (const team of this.teams.values()) {
      for (const collection of Object.keys(team.segments)) {
        await this.applySegments(created, team, collection);
      }
    }
    this.environments.set(secret, created);
    return created;
  }

  /** Runs a change, then waits until the agents' event streams relayed `event`. */
  private async change(event: string | null, run: () => Promise<boolean>): Promise<void> {
    if (!event) {
      await run();
      return;
    }
    // One change can take several management calls, each publishing the event (a role PATCH per
    // role): wait for all of them, or the agent could answer from rights half-way through.
    const newest = await this.knex('platform_events').max('id as last').first();
    const last = Number(newest?.last ?? 0);
    const delivered = this.expectEvent(event);
    if (!(await run())) {
      await delivered(0);
      return;
    }
    const [counted] = await this.knex('platform_events')
      .where('id', '>', last)
      .andWhere({ event })
      .count({ count: '*' });
    await delivered(Number(counted?.count ?? 0));
  }

  setUsers(users: SandboxUser[]): Promise<void> {
    return this.change('refresh-users', () => this.applyUsers(users));
  }

  setRoles(roles: SandboxRole[]): Promise<void> {
    for (const role of roles) assertNoConditions(role.actions ?? {});
    return this.change('refresh-roles', async () => {
      this.roles = roles.map((role) => ({ ...role }));
      return this.applyRoles();
    });
  }

  setPermissionOverrides(overrides: PermissionOverrides, environment: WorldEnvironment) {
    for (const override of Object.values(overrides)) {
      assertNoConditions({ any: override.actions ?? {} });
    }
    return this.change('refresh-roles', async () => {
      environment.overrides = overrides;
      return this.applyRoles();
    });
  }

  setScope(collection: string, scope: PlainConditionTree | null, renderingId = TEST_RENDERING_ID) {
    return this.change('refresh-renderings', async () => {
      const team = await this.team(renderingId);
      const scopes = { ...team.scopes };
      if (scope) scopes[collection] = scope;
      else delete scopes[collection];
      await this.api('PATCH', this.path(`/teams/${encodeURIComponent(team.name)}`), { scopes });
      team.scopes = scopes;
      return true;
    });
  }

  /**
   * Replaces a team's Console segments on a collection, in every environment an agent created
   * (and, through {@link createEnvironment}, in the ones created later): the platform keeps them
   * per environment and team, the sandbox per rendering (= team).
   */
  setFilterSegments(
    collection: string,
    segments: { name: string; filter: PlainConditionTree }[],
    renderingId = TEST_RENDERING_ID,
  ) {
    return this.change('refresh-renderings', async () => {
      const team = await this.team(renderingId);
      if (segments.length > 0) team.segments[collection] = segments;
      else delete team.segments[collection];
      let changed = false;
      for (const environment of this.environments.values()) {
        changed = (await this.applySegments(environment, team, collection)) || changed;
      }
      return changed;
    });
  }

  /** Makes a team's segments on a collection in one environment those the sandbox holds. */
  private async applySegments(
    environment: WorldEnvironment,
    team: WorldTeam,
    collection: string,
  ): Promise<boolean> {
    const base = this.path(
      `/environment/${encodeURIComponent(environment.name)}/teams/${encodeURIComponent(team.name)}/segments`,
    );
    const { data } = (await this.api(
      'GET',
      `${base}?collection=${encodeURIComponent(collection)}`,
    )) as {
      data: { id: number }[];
    };
    for (const existing of data) await this.api('DELETE', `${base}/${existing.id}`);
    const wanted = team.segments[collection] ?? [];
    for (const { name, filter } of wanted) {
      await this.api('POST', base, { name, collection, filter });
    }
    return data.length > 0 || wanted.length > 0;
  }

  setTeam(team: { id: number; name: string }, renderingId = TEST_RENDERING_ID) {
    if (team.id !== renderingId) {
      throw new Error(
        `admin-api-server answers rendering ${renderingId} with team ${renderingId} (rendering ids are team ids): setTeam(${JSON.stringify(team)}, ${renderingId}) cannot be modelled.`,
      );
    }
    return this.change('refresh-renderings', async () => {
      const current = await this.team(renderingId);
      if (current.name === team.name) return false;
      await this.api('PATCH', this.path(`/teams/${encodeURIComponent(current.name)}`), {
        name: team.name,
      });
      current.name = team.name;
      return true;
    });
  }

  async setIpWhitelist(rules: IpRule[] | null): Promise<void> {
    await this.api('PUT', this.path('/ip-whitelist'), { rules });
  }

  /** What the test client posts to `/agent-schema`: stored as the environment's schema. */
  async storeTestClientSchema(environment: WorldEnvironment, schema: SandboxSchema) {
    const row = await this.knex('environments').where({ id: environment.id }).first('schema_hash');
    const hash =
      row?.schema_hash ??
      `test-client:${createHash('sha1').update(JSON.stringify(schema)).digest('hex')}`;
    // The upload document of the agent protocol, so the stored schema reads like an upload.
    const actions: { type: string; id: string; attributes: Record<string, unknown> }[] = [];
    const document = {
      data: schema.collections.map((collection) => {
        const references = (collection.actions ?? []).map((action, index) => {
          const id = `${collection.name}.${action.id ?? index}`;
          actions.push({ type: 'actions', id, attributes: { ...action } });
          return { type: 'actions', id };
        });
        const { actions: _actions, ...attributes } = collection;
        return {
          type: 'collections',
          id: collection.name,
          attributes,
          relationships: { actions: { data: references } },
        };
      }),
      included: actions,
      meta: { ...schema.meta, schemaFileHash: hash },
    };
    await storeSchema(
      this.knex,
      { id: environment.id, projectId: this.projectId },
      {
        hash,
        document,
        collections: schema.collections.map((collection) => ({
          name: collection.name,
          actionNames: (collection.actions ?? []).map((action) => action.name),
        })),
      },
    );
    environment.schema = schema;
  }

  /** After an agent's upload: the schema as the server stored it. */
  async readStoredSchema(environment: WorldEnvironment): Promise<void> {
    const row = await this.knex('environments').where({ id: environment.id }).first('schema');
    if (row?.schema) environment.schema = schemaFromDocument(row.schema).schema;
  }

  /** After an acknowledged batch: the environment's activity logs, through the public API. */
  async readActivityLogs(environment: WorldEnvironment): Promise<void> {
    const teamIds = new Map([...this.teams].map(([id, team]) => [team.name, id]));
    const logs: ActivityLogEntry[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
      const page: ActivityLogPage = await this.api(
        'GET',
        `${this.path(`/environment/${encodeURIComponent(environment.name)}/activity-logs`)}?${query}`,
        undefined,
        await this.activityLogsToken(),
      );
      for (const item of page.data) {
        if (!isActivityLogAction(item.action)) {
          throw new Error(`The public API served an unknown action: ${item.action}`);
        }
        logs.push({
          id: item.id,
          createdAt: item.createdAt,
          type: item.type,
          action: item.action,
          label: item.label ?? '',
          userId: item.user.id,
          renderingId: teamIds.get(item.team.name) ?? null,
          collectionName: item.collection?.name ?? null,
          recordIds: item.recordIds,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    environment.activityLogs = logs.reverse();
  }

  /** Makes the members `users` (plus the actor); `members` is what the server has, if known. */
  private async applyUsers(users: SandboxUser[], members?: MemberItem[]): Promise<boolean> {
    const knex = this.knex;
    const desired = new Map(users.map((user) => [user.id, user]));
    members ??= ((await this.api('GET', this.path(''))) as { members: MemberItem[] }).members;
    const current = new Map(
      members.filter((member) => member.id !== ACTOR_ID).map((member) => [member.id, member]),
    );
    let changed = false;
    for (const user of users) await this.placeholderRole(user.roleId);
    const teamNames = [...this.teams.values()].map((team) => team.name);
    for (const [id, member] of current) {
      const user = desired.get(id);
      if (user && user.email.toLowerCase() === member.email.toLowerCase()) continue;
      await this.api('DELETE', this.path(`/members/${id}`));
      current.delete(id);
      changed = true;
    }
    for (const user of users) {
      const roleName = this.serverRoles.get(user.roleId)!;
      // Names live on the user, which the management API does not edit.
      const clash = await knex('users')
        .whereRaw('lower(email) = lower(?)', [user.email])
        .whereNot({ id: user.id })
        .first('id');
      if (clash) {
        await knex('users')
          .where({ id: clash.id })
          .update({ email: `replaced-${clash.id}@canopy.invalid` });
      }
      const existing = await knex('users').where({ id: user.id }).first('id');
      if (existing) {
        await knex('users')
          .where({ id: user.id })
          .update({
            email: user.email,
            first_name: user.firstName,
            last_name: user.lastName,
            username: `${user.firstName} ${user.lastName}`.trim() || user.email,
          });
      }
      const settings = {
        permissionLevel: user.permissionLevel,
        roleName,
        teamNames,
        tags: user.tags ?? {},
      };
      if (current.has(user.id)) {
        await this.api('PATCH', this.path(`/members/${user.id}`), settings);
      } else {
        if (!existing) await this.steer('users_id_seq', user.id);
        const added = await this.api('POST', this.path('/members'), {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          ...settings,
        });
        if (added.id !== user.id) {
          throw new Error(`User ${user.email} got id ${added.id} instead of ${user.id}.`);
        }
      }
      changed = true;
    }
    this.users = users.map((user) => ({ ...user }));
    return changed;
  }

  /** A role for an id a user names but no sandbox role has: no rights, as in the sandbox. */
  private async placeholderRole(id: number): Promise<void> {
    if (this.serverRoles.has(id)) return;
    const name = `Role ${id}`;
    await this.steer('roles_id_seq', id);
    const created = await this.api('POST', this.path('/roles'), {
      name,
      rights: await this.rightsOf(undefined),
    });
    if (created.id !== id) throw new Error(`Role ${name} got id ${created.id} instead of ${id}.`);
    this.serverRoles.set(id, name);
  }

  /** Every role's rights on the server: its own, overridden by the test client's overrides. */
  private async applyRoles(): Promise<boolean> {
    const referenced = new Set(this.users.map((user) => user.roleId));
    const wanted = new Map(this.roles.map((role) => [role.id, role]));
    for (const [id, name] of [...this.serverRoles]) {
      if (wanted.has(id) || referenced.has(id) || id === TEST_ROLE.id) continue;
      await this.api('DELETE', this.path(`/roles/${encodeURIComponent(name)}`));
      this.serverRoles.delete(id);
    }
    for (const [id, name] of this.serverRoles) {
      const role = wanted.get(id);
      const next = role?.name ?? (id === TEST_ROLE.id ? name : `Role ${id}`);
      await this.api('PATCH', this.path(`/roles/${encodeURIComponent(name)}`), {
        name: next,
        rights: await this.rightsOf(role),
      });
      this.serverRoles.set(id, next);
    }
    for (const role of this.roles) {
      if (this.serverRoles.has(role.id)) continue;
      await this.steer('roles_id_seq', role.id);
      const created = await this.api('POST', this.path('/roles'), {
        name: role.name,
        rights: await this.rightsOf(role),
      });
      if (created.id !== role.id) {
        throw new Error(`Role ${role.name} got id ${created.id} instead of ${role.id}.`);
      }
      this.serverRoles.set(role.id, role.name);
    }
    return true;
  }

  /**
   * The server rights of a sandbox role (or, without one, of a role the sandbox does not list,
   * which holds no right on the declared collections), with every environment's overrides.
   */
  private async rightsOf(role: SandboxRole | undefined): Promise<RoleRights> {
    const rights: Required<RoleRights> = { collections: {}, actions: {} };
    if (!role) {
      const declared: { name: string; action_names: string[] }[] = await this.knex(
        'environment_collections as c',
      )
        .join('environments as e', 'e.id', 'c.environment_id')
        .where('e.project_id', this.projectId)
        .select('c.name', 'c.action_names');
      for (const collection of declared) {
        rights.collections[collection.name] = Object.fromEntries(
          COLLECTION_RIGHTS.map((right) => [right, false]),
        );
        rights.actions[collection.name] = Object.fromEntries(
          collection.action_names.map((action) => [action, { triggerEnabled: false }]),
        );
      }
      return rights;
    }
    Object.assign(rights.collections, structuredClone(role.collections ?? {}));
    for (const [collection, actions] of Object.entries(role.actions ?? {})) {
      rights.actions[collection] = { ...actions } as Record<string, ActionRights>;
    }
    for (const { overrides } of this.environments.values()) {
      for (const [collection, override] of Object.entries(overrides)) {
        if (override.collection) {
          rights.collections[collection] = {
            ...rights.collections[collection],
            ...override.collection,
          };
        }
        for (const [action, forced] of Object.entries(override.actions ?? {})) {
          rights.actions[collection] = {
            ...rights.actions[collection],
            [action]: { ...rights.actions[collection]?.[action], ...forced },
          };
        }
      }
    }
    return rights;
  }

  /** The team of a rendering, created (with that id) on first use, every user a member. */
  private async team(renderingId: number) {
    const known = this.teams.get(renderingId);
    if (known) return known;
    const name = `Rendering ${renderingId}`;
    await this.steer('teams_id_seq', renderingId);
    const created = await this.api('POST', this.path('/teams'), { name });
    if (created.id !== renderingId) {
      throw new Error(`Team ${name} got id ${created.id} instead of ${renderingId}.`);
    }
    const team: WorldTeam = { name, scopes: {}, segments: {} };
    this.teams.set(renderingId, team);
    const teamNames = [...this.teams.values()].map((candidate) => candidate.name);
    for (const user of this.users) {
      await this.api('PATCH', this.path(`/members/${user.id}`), { teamNames });
    }
    return team;
  }

  /** The next row of `sequence` gets `id`. */
  private async steer(sequence: Sequence, id: number): Promise<void> {
    await this.knex.raw('SELECT setval(?, ?, false)', [sequence, id]);
  }

  private path(suffix: string): string {
    return `/v1/project/${PROJECT}${suffix}`;
  }

  /** One management (or, with `token`, public API) call; anything but 2xx throws. */
  // Management answers of several shapes: the callers say what they read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async api(method: string, path: string, body?: unknown, token = this.session): Promise<any> {
    const response = await fetch(`${this.pooled.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `admin-api-server answered ${method} ${path} with ${response.status}: ${text}`,
      );
    }
    return text ? JSON.parse(text) : null;
  }
}

interface MemberItem {
  id: number;
  email: string;
}

interface ActivityLogPage {
  data: {
    id: string;
    createdAt: string;
    type: 'read' | 'write';
    action: string;
    label?: string;
    recordIds: string[];
    user: { id: number };
    team: { name: string };
    collection?: { name: string };
  }[];
  nextCursor: string | null;
}

function assertNoConditions(actions: Record<string, Record<string, ActionRights>>): void {
  for (const byAction of Object.values(actions)) {
    for (const [action, rights] of Object.entries(byAction)) {
      const condition = CONDITIONS.find((key) => key in rights);
      if (condition) {
        throw new Error(
          `admin-api-server roles hold no conditional rights: ${condition} of action "${action}" cannot be modelled.`,
        );
      }
    }
  }
}
