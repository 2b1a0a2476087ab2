import type { TestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  issueApplicationToken,
  issueEnvironmentSecret,
  signSessionToken,
  type AdminApiServer,
  type AdminApiServerConfig,
  type CliIo,
  type EnvironmentRow,
  type ProjectRow,
  type Scope,
  type UserRow,
} from '../../src';

/** Signing keys of the test servers. */
export const TEST_KEYS = [{ id: 'test-1', secret: 'a-test-secret-that-is-long-enough-0123456789' }];

/** The `application_name` of each test server's connections (see {@link runningQueries}). */
const applicationNames = new WeakMap<AdminApiServer, string>();
let servers = 0;

/**
 * A server on the test database's schema, with its own pool (like a separate process). Its
 * connections carry an `application_name` of their own, so a test can count its server's queries
 * apart from those of the other suites running on the same PostgreSQL.
 */
export async function startTestServer(
  db: TestDatabase,
  overrides: Partial<AdminApiServerConfig> = {},
): Promise<AdminApiServer> {
  servers += 1;
  const applicationName = `canopy-test-${process.pid}-${servers}`;
  const url = new URL(db.url);
  url.searchParams.set('application_name', applicationName);
  const server = await createAdminApiServer({
    // An embedded test database is served as the embedded store: one connection, a bounded wait.
    database:
      db.dialect === 'embedded-postgres'
        ? { kind: 'embedded', url: url.toString() }
        : { kind: 'url', url: url.toString(), poolSize: 8 },
    port: 0,
    host: '127.0.0.1',
    signingKeys: TEST_KEYS,
    rateLimit: { points: 100_000, durationSeconds: 60, burstPoints: 0, burstDurationSeconds: 60 },
    defaultTokenLifetimeDays: 30,
    logLevel: 'silent',
    trustProxy: false,
    ...overrides,
  });
  applicationNames.set(server, applicationName);
  return server;
}

/**
 * How many statements matching `like` (an ILIKE pattern) the server's own connections are
 * running, e.g. export cursors still open. Queries of other suites or benches are not counted.
 */
export async function runningQueries(server: AdminApiServer, like: string): Promise<number> {
  const applicationName = applicationNames.get(server);
  if (!applicationName)
    throw new Error('runningQueries: the server was not started by startTestServer');
  const result = await server.knex.raw(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE application_name = ? AND state <> 'idle' AND query ILIKE ? AND pid <> pg_backend_pid()`,
    [applicationName, like],
  );
  return result.rows[0].n as number;
}

/** The project, environments, users and tokens most tests use. */
export interface Seed {
  project: ProjectRow;
  production: EnvironmentRow;
  staging: EnvironmentRow;
  admin: UserRow;
  editor: UserRow;
  /** Tokens of the admin, one per scope, plus `all`. */
  tokens: Record<Scope, string>;
}

let counter = 0;

/** Creates a project named `name` (unique per call when omitted) with everything of {@link Seed}. */
export async function seed(server: AdminApiServer, name?: string): Promise<Seed> {
  counter += 1;
  const knex = server.knex;
  const projectName = name ?? `Shop${counter}`;
  const project = await createProject(knex, { name: projectName, teams: ['Support'] });
  const production = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  const staging = await createEnvironment(knex, {
    projectId: project.id,
    name: 'Staging',
    type: 'development',
  });
  const admin = await createUser(knex, {
    email: `admin${counter}@example.com`,
    username: 'Ada Admin',
  });
  const editor = await createUser(knex, {
    email: `editor${counter}@example.com`,
    username: 'Ed Editor',
  });
  await addProjectMember(knex, {
    projectId: project.id,
    userId: admin.id,
    permissionLevel: 'admin',
  });
  await addProjectMember(knex, {
    projectId: project.id,
    userId: editor.id,
    permissionLevel: 'editor',
    teamNames: ['Support'],
  });
  const tokens = {} as Record<Scope, string>;
  for (const scope of [
    'activity_logs:read',
    'admin_logs:read',
    'notes:read',
    'notes:write',
    'all',
  ] as const) {
    tokens[scope] = await tokenFor(server, project, admin.id, [scope]);
  }
  return { project, production, staging, admin, editor, tokens };
}

/** Issues a token through the same service the REST endpoint and the CLI use. */
export async function tokenFor(
  server: AdminApiServer,
  project: ProjectRow,
  userId: number,
  scopes: Scope[],
  expiresAt = new Date(Date.now() + 86_400_000),
): Promise<string> {
  const { token } = await issueApplicationToken(server.knex, TEST_KEYS, {
    project,
    userId,
    name: `test ${scopes.join(',')}`,
    scopes,
    expiresAt,
    viaSso: false,
  });
  return token;
}

/**
 * The terminal of a `runCli` call on the test database, signing with {@link TEST_KEYS}, that keeps
 * what the command printed on stdout and stderr, line by line; secrets are read from `stdin`.
 */
export function recordingCliIo(
  databaseUrl: string,
  stdin: string[] = [],
): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env: {
      DATABASE_URL: databaseUrl,
      CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
    },
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    stopSignal: () => new Promise(() => undefined),
    readSecret: async () => stdin.shift() ?? '',
    stdout,
    stderr,
  };
}

/** A listening server with every credential its routes take (see {@link startWithCredentials}). */
export interface CredentialedServer {
  server: AdminApiServer;
  port: number;
  s: Seed;
  /** Env secret of the seeded project's Production environment (agent protocol). */
  secret: string;
  /** Session token of the seeded admin (management API), valid for an hour. */
  session: string;
}

/** Starts and seeds a server listening on 127.0.0.1, with an env secret and a session token. */
export async function startWithCredentials(db: TestDatabase): Promise<CredentialedServer> {
  const server = await startTestServer(db);
  const port = await server.listen(0, '127.0.0.1');
  const s = await seed(server);
  const secret = await issueEnvironmentSecret(server.knex, s.production.id);
  const session = signSessionToken(TEST_KEYS, {
    userId: s.admin.id,
    sso: false,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { server, port, s, secret, session };
}
