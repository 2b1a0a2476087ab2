import { createTestDatabase, useTestDatabase } from '@canopy/test-databases';
import knexFactory, { type Knex } from 'knex';
import {
  chainKeysOf,
  createEnvironment,
  createProject,
  createUser,
  insertActivityLogs,
  runCli,
  useChainKeys,
  type AdminApiServer,
} from '../src';
import {
  ensureActivityLogPartitions,
  listActivityLogPartitions,
  purgeExpiredActivityLogs,
  verifyActivityLogChain,
} from '../src/internals';
import { checkpointChainHead, verifyAgainstCheckpoints } from '../src/integrity/checkpoints';
import { checkpointPublicKeys } from '../src/integrity/checkpoints';
import { migrateToLatest, migrationSource } from '../src/migrations';
import { boundInstant } from '../src/store/activity-log-partitions';
import { listActivityLogPage } from '../src/store/activity-log-queries';
import { apiClient } from './helpers/api-client';
import { managementApi } from './helpers/management-api';
import { recordingCliIo, seed, startTestServer, TEST_KEYS } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer(db());
  url = `http://127.0.0.1:${await server.listen(0)}`;
});
afterAll(() => server.close());

/** A project with one environment, user and team, and logs created at the given instants. */
async function projectWithLogs(knex: Knex, name: string, instants: string[]) {
  const project = await createProject(knex, { name });
  const environment = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  const user = await createUser(knex, { email: `${name.toLowerCase()}@example.com` });
  const team = await knex('teams').where({ project_id: project.id }).first('id');
  await insertActivityLogs(
    knex,
    project.id,
    instants.map((instant, i) => ({
      environmentId: environment.id,
      userId: user.id,
      teamId: team.id as number,
      type: 'write' as const,
      action: 'update' as const,
      collectionName: 'orders',
      recordIds: [String(i)],
      createdAt: new Date(instant),
    })),
  );
  return { project, environment, user };
}

const partitionNames = async (knex: Knex) =>
  (await listActivityLogPartitions(knex)).map((partition) => partition.name);

describe('the partitioning migration', () => {
  it('moves the rows into monthly partitions, keeping ids, order, the chain and the id sequence', async () => {
    const fresh = await createTestDatabase('postgres');
    try {
      const before: Knex.MigrationSource<string> = {
        ...migrationSource,
        getMigrations: async () =>
          (await migrationSource.getMigrations([])).filter((name) => name < '20261128'),
      };
      await fresh.knex.migrate.latest({ migrationSource: before });
      useChainKeys(fresh.knex, chainKeysOf({ signingKeys: TEST_KEYS }));
      const { project, environment } = await projectWithLogs(fresh.knex, 'Legacy', [
        '2020-02-29T12:00:00.000Z',
        '2026-08-31T23:59:59.999Z',
        '2026-09-01T00:00:00.000Z',
        '2026-09-15T08:00:00.000Z',
        '2026-10-01T00:00:00.000Z',
      ]);
      const rowsBefore = await fresh
        .knex('activity_logs')
        .orderBy('id')
        .select('id', 'created_at', 'hash');
      expect(
        (
          await fresh.knex.raw(
            "SELECT relkind FROM pg_class WHERE relname = 'activity_logs' AND relnamespace = current_schema()::regnamespace",
          )
        ).rows[0].relkind,
      ).toBe('r');

      // The migrations from the partitioning one on, in order (later ones follow them).
      const applied = await migrateToLatest(fresh.knex);
      expect(applied.slice(0, 2)).toEqual([
        '20261128-101-partitioned-activity-logs',
        '20261128-102-activity-log-retention',
      ]);
      expect(applied.every((name) => name >= '20261128-101')).toBe(true);

      const kind = await fresh.knex.raw(
        "SELECT relkind FROM pg_class WHERE relname = 'activity_logs' AND relnamespace = current_schema()::regnamespace",
      );
      expect(kind.rows[0].relkind).toBe('p');
      const names = await partitionNames(fresh.knex);
      expect(names).toEqual(
        expect.arrayContaining([
          'activity_logs_y2020m02',
          'activity_logs_y2026m08',
          'activity_logs_y2026m09',
          'activity_logs_y2026m10',
          'activity_logs_default',
        ]),
      );
      // Each row sits in its month's partition.
      const placed = await fresh.knex.raw(
        'SELECT tableoid::regclass::text AS part, created_at FROM activity_logs ORDER BY id',
      );
      expect(placed.rows.map((row: { part: string }) => row.part.replace(/^.*\./, ''))).toEqual([
        'activity_logs_y2020m02',
        'activity_logs_y2026m08',
        'activity_logs_y2026m09',
        'activity_logs_y2026m09',
        'activity_logs_y2026m10',
      ]);
      expect(
        await fresh.knex('activity_logs').orderBy('id').select('id', 'created_at', 'hash'),
      ).toEqual(rowsBefore);
      expect(await verifyActivityLogChain(fresh.knex, project.id, {})).toMatchObject({
        valid: true,
        checked: 5,
      });
      // A range across the month boundary verifies its links too.
      expect(
        await verifyActivityLogChain(fresh.knex, project.id, {
          gte: '2026-08-31T00:00:00.000Z',
          lt: '2026-09-02T00:00:00.000Z',
        }),
      ).toMatchObject({ valid: true, fromSequence: 2, toSequence: 3 });
      // The list pages in (created_at DESC, id DESC) order across partitions.
      const page = await listActivityLogPage(
        fresh.knex,
        { projectId: project.id, environmentId: environment.id, createdAt: {} },
        3,
      );
      expect(page.rows.map((row) => row.created_at)).toEqual([
        '2026-10-01T00:00:00.000Z',
        '2026-09-15T08:00:00.000Z',
        '2026-09-01T00:00:00.000Z',
      ]);
      expect(page.hasMore).toBe(true);
      // The page's direct statement (rows from pg's arrays, its own timestamptz and text[]
      // parsers) and knex's builder (what runs inside a transaction) give the same rows.
      const filters = { projectId: project.id, environmentId: environment.id, createdAt: {} };
      const direct = await listActivityLogPage(fresh.knex, filters, 5);
      const built = await fresh.knex.transaction((trx) => listActivityLogPage(trx, filters, 5));
      expect(direct.rows.length).toBeGreaterThan(3);
      expect(direct).toEqual(built);
      expect(Object.keys(direct.rows[0]!)).toEqual(Object.keys(built.rows[0]!));
      const after = await listActivityLogPage(
        fresh.knex,
        {
          projectId: project.id,
          environmentId: environment.id,
          createdAt: {},
          after: { createdAt: new Date(page.rows[2]!.created_at), id: page.rows[2]!.id },
        },
        3,
      );
      expect(after.rows.map((row) => row.created_at)).toEqual([
        '2026-08-31T23:59:59.999Z',
        '2020-02-29T12:00:00.000Z',
      ]);
      // New logs continue the id sequence and the chain.
      const team = await fresh.knex('teams').where({ project_id: project.id }).first('id');
      const user = await fresh.knex('users').where({ email: 'legacy@example.com' }).first('id');
      const [id] = await insertActivityLogs(fresh.knex, project.id, [
        {
          environmentId: environment.id,
          userId: user.id,
          teamId: team.id,
          type: 'read',
          action: 'index',
        },
      ]);
      expect(Number(id)).toBeGreaterThan(Number(rowsBefore.at(-1)!.id));
      expect(await verifyActivityLogChain(fresh.knex, project.id, {})).toMatchObject({
        valid: true,
        checked: 6,
      });
    } finally {
      await fresh.drop();
    }
  });
});

describe('partitions created ahead', () => {
  it('creates each month once when two processes ask at the same moment', async () => {
    const others = [1, 2].map(() =>
      knexFactory({
        client: 'pg',
        connection: db().connection,
        searchPath: [db().name],
        pool: { min: 0, max: 2 },
      }),
    );
    try {
      const from = new Date('2031-01-20T00:00:00.000Z');
      const created = await Promise.all(
        others.map((knex) => ensureActivityLogPartitions(knex, { from, monthsAhead: 5 })),
      );
      expect(created.flat().sort()).toEqual([
        'activity_logs_y2031m01',
        'activity_logs_y2031m02',
        'activity_logs_y2031m03',
        'activity_logs_y2031m04',
        'activity_logs_y2031m05',
        'activity_logs_y2031m06',
      ]);
      expect(await ensureActivityLogPartitions(others[0]!, { from, monthsAhead: 5 })).toEqual([]);
    } finally {
      await Promise.all(others.map((knex) => knex.destroy()));
    }
  });

  it('moves rows the default partition caught into the month created for them', async () => {
    const { project } = await projectWithLogs(server.knex, 'Stray', [
      '2033-03-03T03:03:03.000Z',
      '2033-03-04T00:00:00.000Z',
    ]);
    const where = async () =>
      (
        await server.knex.raw(
          'SELECT DISTINCT tableoid::regclass::text AS part FROM activity_logs WHERE project_id = ?',
          [project.id],
        )
      ).rows.map((row: { part: string }) => row.part.replace(/^.*\./, ''));
    expect(await where()).toEqual(['activity_logs_default']);
    expect(
      await ensureActivityLogPartitions(server.knex, {
        from: new Date('2033-03-01T00:00:00.000Z'),
        monthsAhead: 0,
      }),
    ).toEqual(['activity_logs_y2033m03']);
    expect(await where()).toEqual(['activity_logs_y2033m03']);
    expect(await verifyActivityLogChain(server.knex, project.id, {})).toMatchObject({
      valid: true,
      checked: 2,
    });
  });

  it('reads partition bounds right whatever the session time zone', async () => {
    expect(boundInstant('2026-10-31 20:00:00-04')).toEqual(new Date('2026-11-01T00:00:00.000Z'));
    expect(boundInstant('2026-11-01 05:30:00+05:30')).toEqual(new Date('2026-11-01T00:00:00.000Z'));
    expect(() => boundInstant('MINVALUE')).toThrow(/Unexpected partition bound/);
    const eastern = knexFactory({
      client: 'pg',
      connection: db().connection,
      searchPath: [db().name],
      pool: {
        min: 0,
        max: 1,
        afterCreate: (
          conn: { query: (sql: string, done: (error?: Error) => void) => void },
          done: (error?: Error) => void,
        ) => conn.query("SET TIME ZONE 'America/New_York'", done),
      },
    });
    try {
      await ensureActivityLogPartitions(eastern, {
        from: new Date('2035-07-01T00:00:00.000Z'),
        monthsAhead: 0,
      });
      const july = (await listActivityLogPartitions(eastern)).find(
        (partition) => partition.name === 'activity_logs_y2035m07',
      );
      expect(july).toMatchObject({
        from: new Date('2035-07-01T00:00:00.000Z'),
        to: new Date('2035-08-01T00:00:00.000Z'),
      });
    } finally {
      await eastern.destroy();
    }
  });

  it('creates the current and next months at server start', async () => {
    const names = await partitionNames(server.knex);
    const now = new Date();
    for (let offset = 0; offset <= 3; offset += 1) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      expect(names).toContain(
        `activity_logs_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
      );
    }
  });
});

describe('retention per project', () => {
  it('purges only the project’s expired logs, drops the partitions no project keeps, and keeps the chains verifiable', async () => {
    const knex = server.knex;
    await ensureActivityLogPartitions(knex, {
      from: new Date('2040-01-01T00:00:00.000Z'),
      monthsAhead: 6,
    });
    const a = await projectWithLogs(knex, 'Expiring', [
      '2040-01-10T00:00:00.000Z',
      '2040-01-11T00:00:00.000Z',
      '2040-01-12T00:00:00.000Z',
      '2040-02-10T00:00:00.000Z',
      '2040-02-11T00:00:00.000Z',
    ]);
    // An auditor's checkpoint of a link the purge will remove.
    const checkpoint = await checkpointChainHead(knex, a.project);
    expect(checkpoint.sequence).toBe(5);
    const team = await knex('teams').where({ project_id: a.project.id }).first('id');
    await insertActivityLogs(
      knex,
      a.project.id,
      ['2040-05-01T00:00:00.000Z', '2040-05-02T00:00:00.000Z'].map((instant) => ({
        environmentId: a.environment.id,
        userId: a.user.id,
        teamId: team.id,
        type: 'read' as const,
        action: 'index' as const,
        createdAt: new Date(instant),
      })),
    );
    const b = await projectWithLogs(knex, 'Keeping', [
      '2040-01-20T00:00:00.000Z',
      '2040-01-21T00:00:00.000Z',
      '2040-05-03T00:00:00.000Z',
    ]);
    const call = managementApi(url, (await seedAdmin(a.project.id)).id);
    const updated = await call('PATCH', '/v1/project/Expiring', { activityLogRetentionMonths: 3 });
    expect(updated).toMatchObject({ activityLogRetentionMonths: 3, ssoEnabled: false });

    const now = new Date('2040-06-15T12:00:00.000Z');
    const report = await purgeExpiredActivityLogs(knex, { now, batchSize: 2 });
    expect(report.ran).toBe(true);
    // January also holds the other project's logs: only February goes as a whole.
    expect(report.partitionsDropped).toEqual(['activity_logs_y2040m02']);
    expect(report.projects).toEqual([
      {
        projectId: a.project.id,
        projectName: 'Expiring',
        retentionMonths: 3,
        cutoff: new Date('2040-03-15T12:00:00.000Z'),
        rowsRemoved: 5,
        anchorSequence: 5,
      },
    ]);
    expect(
      await knex('activity_logs')
        .where({ project_id: a.project.id })
        .orderBy('chain_seq')
        .pluck('chain_seq'),
    ).toEqual(['6', '7']);
    expect(
      await knex('activity_logs').where({ project_id: b.project.id }).count({ n: '*' }),
    ).toEqual([{ n: '3' }]);
    expect(await partitionNames(knex)).toEqual(
      expect.arrayContaining(['activity_logs_y2040m01', 'activity_logs_y2040m05']),
    );
    expect(await partitionNames(knex)).not.toContain('activity_logs_y2040m02');

    expect(await verifyActivityLogChain(knex, a.project.id, {})).toMatchObject({
      valid: true,
      checked: 2,
      fromSequence: 6,
    });
    expect(await verifyActivityLogChain(knex, b.project.id, {})).toMatchObject({
      valid: true,
      checked: 3,
    });
    // The checkpoint of a purged link is held by the signed anchor.
    const held = await verifyAgainstCheckpoints(
      knex,
      a.project.id,
      [checkpoint],
      checkpointPublicKeys(chainKeysOf({ signingKeys: TEST_KEYS })),
    );
    expect(held).toMatchObject({ valid: true, checkpointsChecked: 1, firstFailedCheckpoint: null });

    // The admin log records it, the system as initiator.
    const logs = await knex('admin_logs').where({
      project_id: a.project.id,
      resource: 'activity-logs',
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      type: 'remove',
      initiator: 'forestAdmin',
      user_id: null,
      previous_value: {
        retentionMonths: 3,
        cutoff: '2040-03-15T12:00:00.000Z',
        rowsRemoved: 5,
        lastPurgedSequence: 5,
      },
    });
    expect(
      await knex('admin_logs').where({ project_id: b.project.id, resource: 'activity-logs' }),
    ).toHaveLength(0);

    // Appending continues the chain from the kept links; a second run finds nothing to do.
    await insertActivityLogs(knex, a.project.id, [
      {
        environmentId: a.environment.id,
        userId: a.user.id,
        teamId: team.id,
        type: 'read',
        action: 'index',
        createdAt: new Date('2040-06-01T00:00:00.000Z'),
      },
    ]);
    expect(await verifyActivityLogChain(knex, a.project.id, {})).toMatchObject({
      valid: true,
      checked: 3,
    });
    expect(await purgeExpiredActivityLogs(knex, { now })).toEqual({
      ran: true,
      projects: [],
      partitionsDropped: [],
    });

    // A forged anchor (hiding more deleted links) is detected.
    await knex('activity_log_chain_anchors')
      .where({ project_id: a.project.id })
      .update({ sequence: 6 });
    expect((await verifyActivityLogChain(knex, a.project.id, {})).firstBrokenLink).toMatchObject({
      reason: 'anchor_invalid',
    });
    await knex('activity_log_chain_anchors')
      .where({ project_id: a.project.id })
      .update({ sequence: 5 });
    expect((await verifyActivityLogChain(knex, a.project.id, {})).valid).toBe(true);
  });

  it('keeps a link older than the cutoff that follows a newer one, so the chain stays a whole suffix', async () => {
    const knex = server.knex;
    await ensureActivityLogPartitions(knex, {
      from: new Date('2041-01-01T00:00:00.000Z'),
      monthsAhead: 6,
    });
    // An agent's own timestamps: link 2 is newer than the cutoff, link 3 older.
    const c = await projectWithLogs(knex, 'OutOfOrder', [
      '2041-01-01T00:00:00.000Z',
      '2041-05-01T00:00:00.000Z',
      '2041-01-02T00:00:00.000Z',
    ]);
    await knex('projects').where({ id: c.project.id }).update({ activity_log_retention_months: 2 });
    const report = await purgeExpiredActivityLogs(knex, {
      now: new Date('2041-06-01T00:00:00.000Z'),
    });
    expect(report.projects.find((p) => p.projectId === c.project.id)).toMatchObject({
      rowsRemoved: 1,
      anchorSequence: 1,
    });
    expect(
      await knex('activity_logs')
        .where({ project_id: c.project.id })
        .orderBy('chain_seq')
        .pluck('chain_seq'),
    ).toEqual(['2', '3']);
    expect(await verifyActivityLogChain(knex, c.project.id, {})).toMatchObject({
      valid: true,
      checked: 2,
    });
    await knex('projects')
      .where({ id: c.project.id })
      .update({ activity_log_retention_months: null });
  });

  it('purges once when two processes apply the retention at the same moment', async () => {
    const other = knexFactory({
      client: 'pg',
      connection: db().connection,
      searchPath: [db().name],
      pool: { min: 0, max: 2 },
    });
    useChainKeys(other, chainKeysOf({ signingKeys: TEST_KEYS }));
    try {
      const { project } = await projectWithLogs(server.knex, 'Twice', [
        '2002-01-01T00:00:00.000Z',
        '2002-01-02T00:00:00.000Z',
        '2002-01-03T00:00:00.000Z',
      ]);
      await server
        .knex('projects')
        .where({ id: project.id })
        .update({ activity_log_retention_months: 1 });
      const reports = await Promise.all([
        purgeExpiredActivityLogs(server.knex),
        purgeExpiredActivityLogs(other),
      ]);
      // Either the second found the lock taken (ran: false) or ran after the first: nothing left.
      const removed = reports
        .flatMap((report) => report.projects)
        .filter((purge) => purge.projectId === project.id)
        .map((purge) => purge.rowsRemoved);
      expect(removed).toEqual([3]);
      expect(
        await server
          .knex('admin_logs')
          .where({ project_id: project.id, resource: 'activity-logs' })
          .count({ n: '*' }),
      ).toEqual([{ n: '1' }]);
      expect(await verifyActivityLogChain(server.knex, project.id, {})).toMatchObject({
        valid: true,
        checked: 0,
      });
    } finally {
      await other.destroy();
    }
  });

  it('validates the setting over the management API and shows it on the project', async () => {
    const s = await seed(server);
    const call = managementApi(url, s.admin.id);
    await expect(
      call('PATCH', `/v1/project/${s.project.name}`, { activityLogRetentionMonths: 0 }),
    ).rejects.toThrow(/400.*invalid_body/);
    await expect(
      call('PATCH', `/v1/project/${s.project.name}`, { activityLogRetentionMonths: '3' }),
    ).rejects.toThrow(/400/);
    await expect(call('PATCH', `/v1/project/${s.project.name}`, {})).rejects.toThrow(/400/);
    expect(
      await call('PATCH', `/v1/project/${s.project.name}`, { activityLogRetentionMonths: 12 }),
    ).toMatchObject({ activityLogRetentionMonths: 12 });
    expect(await call('GET', `/v1/project/${s.project.name}`)).toMatchObject({
      activityLogRetentionMonths: 12,
    });
    expect(
      await call('PATCH', `/v1/project/${s.project.name}`, { activityLogRetentionMonths: null }),
    ).toMatchObject({ activityLogRetentionMonths: null });
    // The public admin-log list accepts the new resource value.
    const api = apiClient(server.app);
    const res = await api.get(`/v1/project/${s.project.name}/admin-logs?resource=activity-logs`, {
      token: s.tokens['admin_logs:read'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('the CLI', () => {
  it('creates partitions ahead, lists them, and applies the retention', async () => {
    const io = recordingCliIo(db().url);
    expect(await runCli(['partitions', 'create', '--months', '1'], io)).toBe(0);
    expect(io.stdout.at(-1)).toMatch(
      /^(Created: activity_logs_y\d{4}m\d{2}|Every partition already exists\.)/,
    );
    expect(await runCli(['partitions', 'list'], io)).toBe(0);
    expect(io.stdout).toContain('NAME\tFROM\tTO\tESTIMATED ROWS');
    expect(
      io.stdout.some((line) => line.startsWith('activity_logs_default\tdefault\tdefault\t')),
    ).toBe(true);
    expect(
      io.stdout.some((line) =>
        /^activity_logs_y2040m01\t2040-01-01T00:00:00.000Z\t2040-02-01T00:00:00.000Z\t/.test(line),
      ),
    ).toBe(true);
    expect(await runCli(['partitions', 'create', '--months', 'many'], io)).toBe(1);
    expect(io.stderr.at(-1)).toBe('Error: --months must be a whole number from 0 to 1200.');

    const { project } = await projectWithLogs(server.knex, 'Cli', ['2001-01-01T00:00:00.000Z']);
    await server
      .knex('projects')
      .where({ id: project.id })
      .update({ activity_log_retention_months: 1 });
    const before = io.stdout.length;
    expect(await runCli(['retention'], io)).toBe(0);
    expect(io.stdout.slice(before).join('\n')).toMatch(
      /Cli: 1 logs created before .* purged \(keeps 1 months; chain anchored at link 1\)\./,
    );
    expect(
      await server.knex('activity_logs').where({ project_id: project.id }).count({ n: '*' }),
    ).toEqual([{ n: '0' }]);
    expect(await verifyActivityLogChain(server.knex, project.id, {})).toMatchObject({
      valid: true,
    });
  });
});

/** An admin member of the project (for its management API). */
async function seedAdmin(projectId: number) {
  const user = await createUser(server.knex, { email: `admin-${projectId}@example.com` });
  const { addProjectMember } = await import('../src');
  await addProjectMember(server.knex, { projectId, userId: user.id, permissionLevel: 'admin' });
  return user;
}
