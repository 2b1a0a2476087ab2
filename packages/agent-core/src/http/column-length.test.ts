import express from 'express';
import request from 'supertest';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { DataSourceCustomizer } from '../customizer/data-source-customizer';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/**
 * A value longer than its column is refused by the agent with a 400 that names the field and the
 * limit, on create and on update, and the row is left as it was — on each SQL server we run.
 */
describe.each(['postgres', 'mariadb'] as const)(
  'a value longer than its column (%s)',
  (dialect) => {
    const db = useTestDatabase(dialect);
    let dataSource: DataSource;
    let app: express.Express;
    const admin = bearer({ permissionLevel: 'admin' });

    beforeAll(async () => {
      await db().knex.schema.createTable('people', (table) => {
        table.increments('id').primary();
        table.string('first_name', 50).notNullable();
      });
      await db().knex('people').insert({ first_name: 'Ada' });
      dataSource = await new DataSourceCustomizer()
        .addDataSource(createSqlDataSource(db().url))
        .getDataSource();
      app = express();
      app.use(createAgentRouter(createTestServices(dataSource)));
    });

    afterAll(async () => {
      await dataSource?.close?.();
    });

    const body = (firstName: string) => ({
      data: { type: 'people', attributes: { first_name: firstName } },
    });
    const refusal = {
      errors: [
        {
          name: 'ValidationError',
          detail: '"people.first_name" takes at most 50 characters; the value given has 300.',
          status: 400,
        },
      ],
    };

    it('refuses 300 characters in a varchar(50) on create and update, and keeps the row', async () => {
      const created = await request(app)
        .post('/forest/people?timezone=UTC')
        .set('Authorization', admin)
        .send(body('x'.repeat(300)))
        .expect(400);
      expect(created.body).toMatchObject(refusal);
      const updated = await request(app)
        .put('/forest/people/1?timezone=UTC')
        .set('Authorization', admin)
        .send({ data: { id: '1', ...body('x'.repeat(300)).data } })
        .expect(400);
      expect(updated.body).toMatchObject(refusal);
      expect(await db().knex('people').select('first_name')).toEqual([{ first_name: 'Ada' }]);
    });

    it('accepts exactly 50 characters', async () => {
      await request(app)
        .put('/forest/people/1?timezone=UTC')
        .set('Authorization', admin)
        .send({ data: { id: '1', ...body('y'.repeat(50)).data } })
        .expect(200);
      expect(await db().knex('people').select('first_name')).toEqual([
        { first_name: 'y'.repeat(50) },
      ]);
    });
  },
);
