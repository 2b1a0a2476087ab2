import { type Agent, type Plugin, createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/** An agent-level plugin: no total count on any collection (large tables). */
const withoutCounts: Plugin<{ except?: string[] }> = (dataSource, _collection, options) => {
  for (const name of dataSource.collectionNames) {
    if (!options?.except?.includes(name)) dataSource.getCollection(name).disableCount();
  }
};

export async function startAgent(config: {
  databaseUrl: string; // e.g. postgres://app@127.0.0.1:5432/shop?schema=public
  serverUrl: string; // the Canopy platform (CANOPY_SERVER_URL)
  schemaPath: string;
}): Promise<Agent> {
  const agent = createAgent({
    authSecret: 'a-long-random-string', // or CANOPY_AUTH_SECRET
    envSecret: 'ab'.repeat(32), // 64 hex characters, or CANOPY_ENV_SECRET
    serverUrl: config.serverUrl, // or CANOPY_SERVER_URL
    isProduction: false, // development: the schema file is (re)written at start
    loggerLevel: 'Warn',
    schemaPath: config.schemaPath,
  })
    .addDataSource(createSqlDataSource(config.databaseUrl), {
      exclude: ['knex_migrations'],
      rename: { customers: 'clients' },
    })
    .customizeCollection('clients', (clients) =>
      clients
        .addField('fullName', {
          columnType: 'String',
          dependencies: ['first_name', 'last_name'],
          getValues: (records) => records.map((r) => `${r.first_name} ${r.last_name}`),
        })
        .renameField('first_name', 'firstName')
        .removeField('password_hash'),
    )
    .customizeCollection('orders', (orders) =>
      orders
        .addManyToOneRelation('client', 'clients', { foreignKey: 'customer_id' })
        .addSegment('paid', { field: 'status', operator: 'Equal', value: 'paid' }),
    )
    .addChart('paidRevenue', async (context, resultBuilder) => {
      const [row] = await context.dataSource
        .getCollection('orders')
        .aggregate(
          { conditionTree: { field: 'status', operator: 'Equal', value: 'paid' } },
          { operation: 'Sum', field: 'amount' },
        );
      return resultBuilder.value(Number(row?.value ?? 0));
    })
    .removeCollection('audit_entries')
    .use(withoutCounts, { except: ['orders'] })
    .mountOnStandaloneServer(0, '127.0.0.1'); // port 0: any free port; default PORT, else 3351

  await agent.start();
  return agent;
}
