// End-to-end: the canopy-cloud binary, installed from the packed tarballs, against the real
// platform (@canopy/admin-api-server on PostgreSQL: device login, token refresh and revocation,
// environment lookup, then the bootstrapped agent's schema upload) and a real PostgreSQL database.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useTestDatabase } from '@canopy/test-databases';
import { installFromTarballs, runCli as runBin, type CliOptions, type CliRun } from './cli-binary';
import { startPlatform, type Platform } from './platform';

jest.setTimeout(120_000);

/** The customer's database, that the agent reads. */
const database = useTestDatabase('postgres');
/** The platform's own database. */
const platformDatabase = useTestDatabase('postgres');
let platform: Platform;
let work: string;
let configDir: string;
let bin: string;
const runCli = (args: string[], options: CliOptions) => runBin(bin, args, options);

beforeAll(async () => {
  platform = await startPlatform(platformDatabase());
  work = await mkdtemp(join(tmpdir(), 'canopy-cloud-e2e-'));
  bin = await installFromTarballs(work);
  configDir = join(work, 'config');
  await database().knex.schema.createTable('customers', (table) => {
    table.increments('id');
    table.string('email').notNullable();
    table.string('first_name');
  });
  await database().knex.schema.createTable('orders', (table) => {
    table.increments('id');
    table.decimal('amount', 10, 2);
    table.integer('customer_id').references('customers.id');
  });
}, 180_000);

afterAll(async () => {
  await platform?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function env(extra: Record<string, string | undefined> = {}) {
  return { CANOPY_CONFIG_DIR: configDir, CANOPY_SERVER_URL: platform.url, ...extra };
}

/**
 * Runs `login`-capable commands; when the login code shows, approves (or denies) it in the
 * platform's verification page, as the developer would in the browser.
 */
async function runWithApproval(
  args: string[],
  cwd: string,
  approve = true,
  extraEnv: Record<string, string> = {},
  on: Platform = platform,
): Promise<CliRun> {
  let decision: Promise<void> | undefined;
  const run = await runCli(args, {
    cwd,
    env: env({ CANOPY_SERVER_URL: on.url, ...extraEnv }),
    onStderr: (stderr) => {
      const code = /confirm the code ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(stderr)?.[1];
      if (code && !decision) {
        decision = on.decide(code, approve);
        decision.catch(() => undefined);
      }
    },
  });
  await decision;
  return run;
}

/** The stored login of canopy-cloud for a platform URL. */
async function storedLogin(dir: string, url: string) {
  const file = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'));
  return file.servers[url] as
    { accessToken: string; refreshToken?: string; expiresAt?: number } | undefined;
}

function bootstrapArgs(directory: string, envSecret = platform.envSecret): string[] {
  return [
    'bootstrap',
    '--env-secret',
    envSecret,
    '--database-url',
    database().url,
    '--directory',
    directory,
  ];
}

/** The one-sentence failure: a single stderr line, no stack trace. */
function expectOneSentence(run: CliRun, pattern: RegExp) {
  const lines = run.stderr.trim().split('\n');
  expect(lines[lines.length - 1]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('canopy-cloud (built binary)', () => {
  it('prints help for every command', async () => {
    for (const command of ['login', 'bootstrap', 'update-typings']) {
      const run = await runCli([command, '--help'], { cwd: work, env: env() });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: canopy-cloud ${command}`);
      expect(run.stdout).toContain('Example:');
    }
  });

  it('logs in through the device flow and stores the token readable by its owner only', async () => {
    const run = await runWithApproval(['login', '--json'], work);
    expect(run.stderr).toContain(`${platform.url}/oidc/device?user_code=`);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ ok: true, serverUrl: platform.url });
    const credentials = join(configDir, 'credentials.json');
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);
    const stored = await storedLogin(configDir, platform.url);
    expect(stored).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(Number),
    });
    // The stored token is one the platform accepts.
    expect(await platform.lookUpStatus(stored!.accessToken)).toBe(200);
  });

  it('reports a denied login as an authentication failure', async () => {
    const run = await runWithApproval(['login'], work, false);
    expect(run.code).toBe(3);
    expectOneSentence(run, /login was denied/);
  });

  it('bootstraps a directory, type-checks customizations and updates the typings', async () => {
    // No stored login in this configuration directory: bootstrap runs the device login first.
    const fresh = join(work, 'fresh-config');
    const run = await runWithApproval(
      [...bootstrapArgs('cloud-customizer'), '--json'],
      work,
      true,
      {
        CANOPY_CONFIG_DIR: fresh,
      },
    );
    expect(run.stderr).toMatch(/To log in, open .*\n.*confirm the code/);
    expect(run.code).toBe(0);
    expect(existsSync(join(fresh, 'credentials.json'))).toBe(true);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      project: { name: 'Shop' },
      environment: { name: 'Production' },
    });
    const project = join(work, 'cloud-customizer');
    expect((await readdir(project)).sort()).toEqual([
      '.canopy-schema.json',
      '.env',
      '.gitignore',
      'README.md',
      'package.json',
      'src',
      'tsconfig.json',
    ]);
    const dotenv = await readFile(join(project, '.env'), 'utf8');
    expect(dotenv).toContain(`CANOPY_ENV_SECRET=${platform.envSecret}`);
    expect(dotenv).toContain(`CANOPY_SERVER_URL=${platform.url}`);
    expect(dotenv).toMatch(/CANOPY_AUTH_SECRET=[0-9a-f]{64}/);
    expect((await readFile(join(project, '.gitignore'), 'utf8')).split('\n')).toContain('.env');
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(['@canopy/agent-core', '@canopy/datasource-sql']),
    );
    const typings = await readFile(join(project, 'src', 'typings.ts'), 'utf8');
    expect(typings).toContain("'customers': {");
    expect(typings).toContain("'customer:email': string;");

    await linkWorkspaceTypes(project);
    await writeCustomization(project, 'email');
    expect(await typecheck(project)).toEqual({ ok: true, output: '' });
    await writeCustomization(project, 'emial');
    const misspelt = await typecheck(project);
    expect(misspelt.ok).toBe(false);
    expect(misspelt.output).toContain('"emial"');

    await writeCustomization(project, 'email');
    expect(typings).not.toContain("'displayName'");
    const update = await runCli(['update-typings'], { cwd: project, env: env() });
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('Updated');
    expect(await readFile(join(project, 'src', 'typings.ts'), 'utf8')).toContain(
      "'displayName': string;",
    );

    const fields = await startProjectAgent(project);
    expect(fields).toEqual(expect.arrayContaining(['id', 'email', 'first_name', 'displayName']));
  });

  it('refuses an existing directory unless --force, before any network call', async () => {
    await mkdir(join(work, 'taken'));
    const requests = platform.requests.length;
    const refused = await runCli(bootstrapArgs('taken'), { cwd: work, env: env() });
    expect(refused.code).toBe(1);
    expectOneSentence(refused, /taken already exists; .*--force/);
    expect(platform.requests.length).toBe(requests);

    const forced = await runCli([...bootstrapArgs('taken'), '--force'], { cwd: work, env: env() });
    expect(forced.code).toBe(0);
    expect(existsSync(join(work, 'taken', 'src', 'typings.ts'))).toBe(true);
  });

  it('tells a wrong env secret from a malformed one', async () => {
    const unknown = await runCli(bootstrapArgs('wrong', 'a'.repeat(64)), { cwd: work, env: env() });
    expect(unknown.code).toBe(3);
    expectOneSentence(unknown, /No environment .* has this env secret/);
    const malformed = await runCli(bootstrapArgs('wrong', 'not-a-secret'), {
      cwd: work,
      env: env(),
    });
    expect(malformed.code).toBe(2);
    expectOneSentence(malformed, /64 lowercase hexadecimal/);
    expect(existsSync(join(work, 'wrong'))).toBe(false);
  });

  it('refreshes an expired token, and asks for a new login once the login is revoked', async () => {
    // A second server on the same database whose access tokens live 5 seconds (4 to 5: the
    // provider counts whole seconds), so the refreshed one is still valid for the lookup.
    const shortLived = await startPlatform(platformDatabase(), {
      accessTokenSeconds: 5,
      seeded: { envSecret: platform.envSecret, environmentId: platform.environmentId },
    });
    try {
      const onShort = { CANOPY_SERVER_URL: shortLived.url };
      expect((await runWithApproval(['login'], work, true, {}, shortLived)).code).toBe(0);
      const first = (await storedLogin(configDir, shortLived.url))!;
      await new Promise((resolve) => setTimeout(resolve, 5200));
      expect(await shortLived.lookUpStatus(first.accessToken)).toBe(401);

      const tokenCalls = shortLived.requests.filter((r) => r === 'POST /oidc/token').length;
      const refreshed = await runCli(bootstrapArgs('refreshed'), { cwd: work, env: env(onShort) });
      expect(refreshed.code).toBe(0);
      expect(shortLived.requests.filter((r) => r === 'POST /oidc/token').length).toBe(
        tokenCalls + 1,
      );
      const second = (await storedLogin(configDir, shortLived.url))!;
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(second.refreshToken).not.toBe(first.refreshToken);

      // Revoked: the refresh is refused (invalid_grant), the login forgotten, a new one asked for.
      await shortLived.revoke(second.refreshToken!);
      const relogin = await runWithApproval(bootstrapArgs('revoked'), work, false, {}, shortLived);
      expect(relogin.stderr).toMatch(/Refreshing your login[\s\S]*To log in, open /);
      expect(relogin.code).toBe(3);
      expectOneSentence(relogin, /login was denied/);
      expect(await storedLogin(configDir, shortLived.url)).toBeUndefined();
      expect(existsSync(join(work, 'revoked'))).toBe(false);
    } finally {
      await shortLived.close();
    }

    // A revoked login whose access token has not expired yet: the platform refuses it (401).
    const stored = (await storedLogin(configDir, platform.url))!;
    await platform.revoke(stored.refreshToken!);
    const revoked = await runCli(bootstrapArgs('revoked'), { cwd: work, env: env() });
    expect(revoked.code).toBe(3);
    expectOneSentence(revoked, /refused your login .* run canopy-cloud login/);
    expect(existsSync(join(work, 'revoked'))).toBe(false);
    expect(await storedLogin(configDir, platform.url)).toBeUndefined();
  });

  it('uses CANOPY_TOKEN in CI and reports it when refused', async () => {
    const ok = await runCli(bootstrapArgs('from-ci'), {
      cwd: work,
      env: env({
        CANOPY_TOKEN: (await platform.logIn()).accessToken,
        CANOPY_CONFIG_DIR: join(work, 'none'),
      }),
    });
    expect(ok.code).toBe(0);
    const refused = await runCli(bootstrapArgs('from-ci-2'), {
      cwd: work,
      env: env({ CANOPY_TOKEN: 'at-revoked' }),
    });
    expect(refused.code).toBe(3);
    expectOneSentence(refused, /CANOPY_TOKEN/);
  });

  it('reports an unreachable platform in one sentence', async () => {
    const run = await runCli(bootstrapArgs('unreachable'), {
      cwd: work,
      env: env({ CANOPY_SERVER_URL: 'http://127.0.0.1:9', CANOPY_TOKEN: 'at-x' }),
    });
    expect(run.code).toBe(1);
    expectOneSentence(
      run,
      /^canopy-cloud: Cannot reach the Canopy platform at http:\/\/127\.0\.0\.1:9;/,
    );
  });

  it('reports an unwritable directory in one sentence', async () => {
    // root writes anywhere but in /sys; anyone else is refused by a read-only directory.
    const readOnly = join(work, 'read-only');
    await mkdir(readOnly, { mode: 0o555 });
    const parent = process.getuid?.() === 0 ? '/sys' : readOnly;
    const run = await runCli(bootstrapArgs(join(parent, 'cloud-customizer')), {
      cwd: work,
      env: env({ CANOPY_TOKEN: (await platform.logIn()).accessToken }),
    });
    expect(run.code).toBe(1);
    expectOneSentence(run, /Cannot write .*cloud-customizer \((EACCES|EPERM)\); run bootstrap in/);
  });

  it('refuses update-typings outside a bootstrapped directory', async () => {
    const run = await runCli(['update-typings'], { cwd: work, env: env() });
    expect(run.code).toBe(1);
    expectOneSentence(run, /no readable \.env here .* canopy-cloud bootstrap/);
  });

  it('leaves no half-written directory when interrupted', async () => {
    const hanging: Server = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as { port: number }).port;
    let killed = false;
    try {
      const run = await runCli(
        [...bootstrapArgs('interrupted'), '--database-url', `postgres://x@127.0.0.1:${port}/db`],
        {
          cwd: work,
          env: env({ CANOPY_TOKEN: (await platform.logIn()).accessToken }),
          onStderr: (stderr, child) => {
            if (!killed && stderr.includes('Reading the database structure')) {
              killed = true;
              child.kill('SIGINT');
            }
          },
        },
      );
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('Interrupted: nothing was created');
      expect((await readdir(work)).filter((name) => name.includes('interrupted'))).toEqual([]);
    } finally {
      hanging.close();
    }
  });
});

/**
 * Starts the bootstrapped project's agent with its `npm start` command against the platform (the
 * URL in the project's .env) and resolves, once the agent has uploaded its schema and subscribed
 * to the platform's events, to the fields of `customers` the platform stored. @canopy/* and tsx
 * resolve to the packages installed from the tarballs in the parent directory.
 */
async function startProjectAgent(project: string): Promise<string[]> {
  const port = await freePort();
  const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
  const [command, ...args] = (manifest.scripts.start as string).split(' ');
  expect(command).toBe('node');
  const uploads = () => platform.requests.filter((r) => r === 'POST /forest/apimaps').length;
  const subscriptions = () =>
    platform.requests.filter((r) => r === 'GET /liana/v4/subscribe-to-events').length;
  const before = { uploads: uploads(), subscriptions: subscriptions() };
  const agent = spawn(process.execPath, args, {
    cwd: project,
    env: { PATH: process.env.PATH, PORT: String(port) },
  });
  let output = '';
  agent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  agent.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (
      let waited = 0;
      uploads() === before.uploads || subscriptions() === before.subscriptions;
    ) {
      if (agent.exitCode !== null) throw new Error(`The agent exited: ${output}`);
      if (waited > 30_000) throw new Error(`The agent did not connect: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      waited += 100;
    }
    // Connected to the platform is not yet listening: the server starts right after.
    let health: Response | undefined;
    for (let waited = 0; !health; waited += 100) {
      if (agent.exitCode !== null) throw new Error(`The agent exited: ${output}`);
      if (waited > 30_000) throw new Error(`The agent does not listen on ${port}: ${output}`);
      health = await fetch(`http://127.0.0.1:${port}/forest`).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return undefined;
      });
    }
    expect(health.status).toBe(200);
    const row = await platform.server
      .knex('environments')
      .where({ id: platform.environmentId })
      .first('schema');
    const collections = (row?.schema?.data ?? []) as {
      attributes: { name: string; fields: { field: string }[] };
    }[];
    const customers = collections.find((collection) => collection.attributes.name === 'customers');
    return (customers?.attributes.fields ?? []).map((field) => field.field);
  } finally {
    agent.kill('SIGTERM');
    await new Promise((resolve) => agent.once('close', resolve));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Makes the bootstrapped project resolve @canopy/* to the workspace sources (the packages are not
 * published from here): its tsconfig extends the workspace's, whose `paths` point at them.
 */
async function linkWorkspaceTypes(project: string) {
  const base = join(__dirname, '..', '..', '..', 'tsconfig.base.json');
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      extends: base,
      compilerOptions: { types: ['node'], typeRoots: [join(base, '..', 'node_modules', '@types')] },
      include: ['src/index.ts', 'src/typings.ts'],
    }),
  );
}

async function writeCustomization(project: string, field: string) {
  await writeFile(
    join(project, 'src', 'index.ts'),
    `import type { Agent } from '@canopy/cloud-cli';
import type { Schema } from './typings';

export default function customizeAgent(agent: Agent<Schema>): void {
  agent.customizeCollection('customers', (customers) =>
    customers.addField('displayName', {
      columnType: 'String',
      dependencies: ['${field}', 'first_name'],
      getValues: (records) => records.map((record) => \`\${record.first_name} <\${record.email}>\`),
    }),
  );
}
`,
  );
}

/** tsc on the project; incremental, so the second run re-checks only what changed. */
async function typecheck(project: string): Promise<{ ok: boolean; output: string }> {
  const tsc = require.resolve('typescript/bin/tsc');
  const buildInfo = join(work, 'tsc-cache', 'tsconfig.tsbuildinfo');
  try {
    await promisify(execFile)(process.execPath, [
      tsc,
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      buildInfo,
      '-p',
      project,
    ]);
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}
