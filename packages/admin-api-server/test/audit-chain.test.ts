import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestDatabase } from '@canopy/test-databases';
import { insertActivityLogs, runCli, type AdminApiServer } from '../src';
import { verifyActivityLogChain } from '../src/internals';
import { chainHash, GENESIS_HASH } from '../src/integrity/hash-chain';
import { checkpointSignatureIsValid } from '../src/integrity/checkpoints';
import { chainedFieldsOf } from '../src/integrity/verify-chain';
import { apiClient } from './helpers/api-client';
import { recordingCliIo, seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
const K1 = { id: 'chain-1', secret: 'first-chain-secret-0123456789abcdef0123' };
const K2 = { id: 'chain-2', secret: 'second-chain-secret-0123456789abcdef012' };
let server: AdminApiServer;

beforeAll(async () => {
  server = await startTestServer(db(), { auditChainKeys: [K1] });
});
afterAll(() => server.close());

async function project(logs: number, on = server): Promise<Seed & { team: number }> {
  const s = await seed(on);
  const team = (await on.knex('teams').where({ project_id: s.project.id }).first()).id as number;
  await append(on, s, team, logs);
  return { ...s, team };
}

async function append(on: AdminApiServer, s: Seed, team: number, count: number) {
  await insertActivityLogs(
    on.knex,
    s.project.id,
    Array.from({ length: count }, (_, i) => ({
      environmentId: s.production.id,
      userId: s.admin.id,
      teamId: team,
      type: 'read' as const,
      action: 'index' as const,
      collectionName: 'orders',
      recordIds: [String(i)],
    })),
  );
}

const verify = (projectId: number, on = server) => verifyActivityLogChain(on.knex, projectId, {});

/** Rewrites links from `fromSeq` on as someone without the chain key would: plain SHA-256. */
async function rehashWithoutKey(projectId: number, fromSeq: number) {
  const rows = await server
    .knex('activity_logs')
    .where({ project_id: projectId })
    .where('chain_seq', '>=', fromSeq)
    .orderBy('chain_seq');
  const before = await server
    .knex('activity_logs')
    .where({ project_id: projectId, chain_seq: fromSeq - 1 })
    .first('hash');
  let previous: string = before?.hash ?? GENESIS_HASH;
  for (const row of rows) {
    const hash = chainHash(previous, chainedFieldsOf(row));
    await server
      .knex('activity_logs')
      .where({ id: row.id })
      .update({ previous_hash: previous, hash, key_id: null });
    previous = hash;
  }
  await server
    .knex('activity_log_chain_heads')
    .where({ project_id: projectId })
    .update({ last_hash: previous });
}

describe('issue 17 finding 4: the chain resists truncation and re-hashing', () => {
  it('reports deleting the newest logs (the stored head names a later link)', async () => {
    const s = await project(10);
    expect((await verify(s.project.id)).valid).toBe(true);
    await server
      .knex('activity_logs')
      .where({ project_id: s.project.id })
      .where('chain_seq', '>', 8)
      .delete();
    const report = await verify(s.project.id);
    expect(report.valid).toBe(false);
    expect(report.firstBrokenLink).toMatchObject({ sequence: 9, reason: 'chain_head_mismatch' });
  });

  it('reports a modified chain re-hashed without the key', async () => {
    const s = await project(10);
    await server
      .knex('activity_logs')
      .where({ project_id: s.project.id, chain_seq: 5 })
      .update({ label: 'forged' });
    await rehashWithoutKey(s.project.id, 5);
    const report = await verify(s.project.id);
    expect(report.valid).toBe(false);
    expect(report.firstBrokenLink).toMatchObject({ sequence: 5, reason: 'unkeyed_link' });
  });

  it('keeps verifying links written before keying, and keys what follows', async () => {
    const s = await project(6);
    await rehashWithoutKey(s.project.id, 1); // as migrated rows are: plain SHA-256, no key id
    expect(await verify(s.project.id)).toMatchObject({ valid: true, checked: 6 });
    await append(server, s, s.team, 3);
    const keyIds = await server
      .knex('activity_logs')
      .where({ project_id: s.project.id })
      .orderBy('chain_seq')
      .pluck('key_id');
    expect(keyIds).toEqual([null, null, null, null, null, null, 'chain-1', 'chain-1', 'chain-1']);
    expect(await verify(s.project.id)).toMatchObject({ valid: true, checked: 9 });
  });

  it('verifies links of a retired key while it stays listed, and names a missing one', async () => {
    const s = await project(3);
    const rotated = await startTestServer(db(), { auditChainKeys: [K2, K1] });
    const dropped = await startTestServer(db(), { auditChainKeys: [K2] });
    try {
      await append(rotated, s, s.team, 2);
      expect(await verify(s.project.id, rotated)).toMatchObject({ valid: true, checked: 5 });
      expect((await verify(s.project.id, dropped)).firstBrokenLink).toMatchObject({
        sequence: 1,
        reason: 'unknown_key',
      });
    } finally {
      await rotated.close();
      await dropped.close();
    }
  });
});

describe('signed checkpoints', () => {
  it('publishes a signed head, and the CLI verifies a chain against exported checkpoints', async () => {
    const s = await project(5);
    const api = apiClient(server.app);
    const res = await api.get(
      `/v1/project/${s.project.name}/environment/Production/activity-logs/checkpoint`,
      { token: s.tokens['activity_logs:read'] },
    );
    expect(res.status).toBe(200);
    const { checkpoint, publicKeys } = res.body;
    expect(checkpoint).toMatchObject({ sequence: 5, keyId: 'chain-1' });
    expect(checkpointSignatureIsValid(checkpoint, publicKeys)).toBe(true);
    expect(checkpointSignatureIsValid({ ...checkpoint, sequence: 4 }, publicKeys)).toBe(false);

    await append(server, s, s.team, 2);
    const env = { CANOPY_AUDIT_CHAIN_KEYS: `${K1.id}:${K1.secret}` };
    const exported = recordingCliIo(db().url);
    Object.assign(exported.env, env);
    expect(await runCli(['checkpoints', 'export', '--project', s.project.name], exported)).toBe(0);
    expect(exported.stdout.map((line) => JSON.parse(line).sequence)).toEqual([5, 7]);
    const dir = mkdtempSync(join(tmpdir(), 'canopy-checkpoints-'));
    const file = join(dir, 'checkpoints.jsonl');
    writeFileSync(file, `${exported.stdout.join('\n')}\n`);
    const keysFile = join(dir, 'keys.jsonl');
    writeFileSync(keysFile, publicKeys.map((key: object) => JSON.stringify(key)).join('\n'));

    const verifyCli = async () => {
      const io = recordingCliIo(db().url);
      Object.assign(io.env, env);
      const args = ['checkpoints', 'verify', '--project', s.project.name, '--file', file];
      const code = await runCli([...args, '--public-keys', keysFile], io);
      return { code, out: [...io.stdout, ...io.stderr].join('\n') };
    };
    expect(await verifyCli()).toMatchObject({
      code: 0,
      out: expect.stringContaining('holds all 2'),
    });

    // Someone with database access deletes the newest links and fixes up the head: the chain
    // alone verifies again, but the checkpoint kept elsewhere does not agree.
    await server
      .knex('activity_logs')
      .where({ project_id: s.project.id })
      .where('chain_seq', '>', 6)
      .delete();
    const six = await server
      .knex('activity_logs')
      .where({ project_id: s.project.id, chain_seq: 6 })
      .first('hash');
    await server
      .knex('activity_log_chain_heads')
      .where({ project_id: s.project.id })
      .update({ last_seq: 6, last_hash: six.hash });
    expect((await verify(s.project.id)).valid).toBe(true);
    const failed = await verifyCli();
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('Checkpoint at sequence 7: missing_link');
  });
});
