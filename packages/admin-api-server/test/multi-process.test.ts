import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  createUser,
  issueApplicationToken,
} from '../src';
import { TEST_KEYS } from './helpers/test-server';
import { buildCliBundle, startServeProcess } from './helpers/cli-bundle';

let outDir: string;
let db: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  outDir = buildCliBundle();
  db = await createTestDatabase('postgres');
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await db?.drop();
  rmSync(outDir, { recursive: true, force: true });
});

async function serve(): Promise<number> {
  const { child, port } = await startServeProcess(outDir, db.url, {
    RATE_LIMIT_POINTS: '6',
    RATE_LIMIT_DURATION_SECONDS: '300',
    RATE_LIMIT_BURST_POINTS: '4',
    RATE_LIMIT_BURST_DURATION_SECONDS: '600',
  });
  children.push(child);
  return port;
}

it('two server processes started together on one fresh database share the rate limit exactly', async () => {
  const ports = await Promise.all([serve(), serve()]);
  const project = await createProject(db.knex, { name: 'Multi' });
  await createEnvironment(db.knex, { projectId: project.id, name: 'Production' });
  const user = await createUser(db.knex, { email: 'multi@example.com' });
  await addProjectMember(db.knex, {
    projectId: project.id,
    userId: user.id,
    permissionLevel: 'admin',
  });
  const { token } = await issueApplicationToken(db.knex, TEST_KEYS, {
    project,
    userId: user.id,
    name: 'multi',
    scopes: ['all'],
    expiresAt: new Date(Date.now() + 600_000),
    viaSso: false,
  });
  const statuses = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(
        `http://127.0.0.1:${ports[i % 2]}/v1/project/Multi/environment/Production/activity-logs`,
        {
          headers: { Authorization: `Bearer ${token}` },
        },
      ).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      }),
    ),
  );
  expect(statuses.filter((status) => status === 200)).toHaveLength(10);
  expect(statuses.filter((status) => status === 429)).toHaveLength(30);
}, 60_000);
