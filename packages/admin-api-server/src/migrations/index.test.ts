import { createTestDatabase } from '@canopy/test-databases';
import knexFactory from 'knex';
import { migrateToLatest } from './index';

it('lets two processes migrate one fresh schema at the same moment', async () => {
  for (let round = 0; round < 4; round += 1) {
    const db = await createTestDatabase('postgres');
    // A second pool on the same schema, as a second server process would have.
    const other = knexFactory({
      client: 'pg',
      connection: db.connection,
      searchPath: [db.name],
      pool: { min: 0, max: 2 },
    });
    try {
      const [first, second] = await Promise.all([migrateToLatest(db.knex), migrateToLatest(other)]);
      expect([...first, ...second].sort()).toEqual([
        '20261121-001-platform-model',
        '20261121-002-audit-trail',
        '20261121-003-notes',
        '20261121-004-request-state',
      ]);
      expect(await migrateToLatest(db.knex)).toEqual([]);
    } finally {
      await other.destroy();
      await db.drop();
    }
  }
});
