import { createTestDatabase } from '@canopy/test-databases';
import knexFactory from 'knex';
import { migrateToLatest } from './index';

it('lets three processes migrate one fresh schema at the same moment', async () => {
  for (let round = 0; round < 6; round += 1) {
    const db = await createTestDatabase('postgres');
    // Other pools on the same schema, as other server processes would have.
    const others = [1, 2].map(() =>
      knexFactory({
        client: 'pg',
        connection: db.connection,
        searchPath: [db.name],
        pool: { min: 0, max: 2 },
      }),
    );
    try {
      const applied = await Promise.all([db.knex, ...others].map((knex) => migrateToLatest(knex)));
      expect(applied.flat().sort()).toEqual([
        '20261121-001-platform-model',
        '20261121-002-audit-trail',
        '20261121-003-notes',
        '20261121-004-request-state',
        '20261121-005-agent-platform',
        '20261121-006-oidc',
        '20261121-007-mcp-oauth',
        '20261126-001-accounts',
        '20261126-002-keyed-activity-chain',
        '20261126-101-agent-interop',
        '20261126-201-rate-limit-buckets',
        '20261127-101-action-approvals',
        '20261127-201-dashboards',
        '20261128-101-partitioned-activity-logs',
        '20261128-102-activity-log-retention',
        '20261128-311-activity-log-error-messages',
        '20261128-401-console-layouts',
        '20261128-501-console-live',
        '20261128-502-console-approvals-and-streams',
      ]);
      expect(await migrateToLatest(db.knex)).toEqual([]);
    } finally {
      await Promise.all(others.map((knex) => knex.destroy()));
      await db.drop();
    }
  }
});
