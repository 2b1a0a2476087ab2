import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  issueApplicationToken,
  loadConfig,
} from '../src';
import { validateFetchResponse } from './helpers/openapi-validator';
import { TEST_KEYS } from './helpers/test-server';

it('starts on the embedded PostgreSQL by default and answers, keeping data in the data directory', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-embedded-'));
  const env = {
    CANOPY_DATA_DIR: dataDir,
    CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
  };
  const config = loadConfig(env);
  expect(config.database).toEqual({ kind: 'embedded', dataDir });
  try {
    const server = await createAdminApiServer(config);
    const port = await server.listen();
    const project = await createProject(server.knex, { name: 'Embedded' });
    await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
    const user = await createUser(server.knex, { email: 'e@example.com' });
    await addProjectMember(server.knex, {
      projectId: project.id,
      userId: user.id,
      permissionLevel: 'admin',
    });
    const { token } = await issueApplicationToken(server.knex, TEST_KEYS, {
      project,
      userId: user.id,
      name: 'e',
      scopes: ['all'],
      expiresAt: new Date(Date.now() + 60_000),
      viaSso: false,
    });
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    const healthBody = await health.json();
    validateFetchResponse('get', '/health', health, healthBody);
    expect(healthBody).toEqual({ status: 'ok' });
    const notesPath = '/v1/project/Embedded/environment/Production/notes';
    const list = await fetch(`http://127.0.0.1:${port}${notesPath}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const listBody = (await list.json()) as { data: unknown[] };
    validateFetchResponse('get', notesPath, list, listBody);
    expect(list.status).toBe(200);
    expect(listBody.data).toEqual([]);
    // No other user may read or write the store (PGlite creates its files 0666).
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    await server.close();
    expect(modesOpenToOthers(dataDir)).toEqual([]);

    const reopened = await createAdminApiServer(config);
    expect(
      (await reopened.knex('projects').select('name')).map((row: { name: string }) => row.name),
    ).toEqual(['Embedded']);
    await reopened.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

/** Files and directories under `directory` that a group or other users may reach. */
function modesOpenToOthers(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => (statSync(path).mode & 0o077) !== 0);
}
