import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useTestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  runCli,
} from '../src';
import { TEST_KEYS } from './helpers/test-server';

const db = useTestDatabase('postgres');

/** The `console` block of the README: commands and the output each should print. */
function readmeSession(): { argv: string[]; expected: string[] }[] {
  const readme = readFileSync(resolve(__dirname, '..', 'README.md'), 'utf8');
  const block = /```console\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('The README has no console example');
  const steps: { argv: string[]; expected: string[] }[] = [];
  for (const line of block.trimEnd().split('\n')) {
    if (line.startsWith('$ ')) {
      const words = [...line.slice(2).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      expect(words[0]).toBe('canopy-admin-api');
      steps.push({ argv: words.slice(1), expected: [] });
    } else {
      steps.at(-1)!.expected.push(line);
    }
  }
  return steps;
}

/** Dates, tokens (shown truncated in the README) and tabs vary; the rest must match exactly. */
function normalize(line: string): string {
  return line
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<date>')
    .replace(/^eyJ[\w.-]+…?$/, '<token>');
}

it('runs the README terminal example as written', async () => {
  const server = await createAdminApiServer({
    database: { kind: 'url', url: db().url, poolSize: 2 },
    port: 0,
    host: '127.0.0.1',
    signingKeys: TEST_KEYS,
    rateLimit: { points: 10, durationSeconds: 1, burstPoints: 0, burstDurationSeconds: 1 },
    defaultTokenLifetimeDays: 365,
    logLevel: 'silent',
    trustProxy: false,
  });
  const project = await createProject(server.knex, { name: 'Shop' });
  await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
  const ada = await createUser(server.knex, { email: 'ada@example.com', username: 'Ada' });
  await addProjectMember(server.knex, {
    projectId: project.id,
    userId: ada.id,
    permissionLevel: 'admin',
  });
  await server.close();

  const steps = readmeSession();
  expect(steps.length).toBeGreaterThanOrEqual(4);
  for (const step of steps) {
    const printed: string[] = [];
    const env = {
      DATABASE_URL: db().url,
      CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
    };
    await runCli(step.argv, {
      env,
      out: (l) => printed.push(l),
      err: (l) => printed.push(l),
      stopSignal: () => new Promise(() => undefined),
      readSecret: async () => '',
    });
    expect(printed.map(normalize)).toEqual(step.expected.map(normalize));
  }
});
