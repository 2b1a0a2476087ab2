import { openDemoDatabase, type DemoDatabase } from './database';
import { countShop, seedShop } from './seed';
import { runWalkthrough } from './walkthrough';

const check = process.argv.includes('--check');

async function main(): Promise<void> {
  console.log('Canopy demo: the whole system on a sample shop.');
  let database: DemoDatabase | undefined;
  try {
    await runWalkthrough([
      {
        title: 'Open the database',
        run: async () => {
          database = await openDemoDatabase();
          return database.description;
        },
      },
      {
        title: 'Create the sample shop (deterministic data)',
        run: async () => {
          await seedShop(database!.knex);
          const counts = await countShop(database!.knex);
          return Object.entries(counts)
            .map(([table, count]) => `${table.padEnd(12)} ${count.toLocaleString('en-US')} rows`)
            .join('\n');
        },
      },
    ]);
    console.log(check ? '\nDemo check passed.' : '\nDone.');
  } finally {
    await database?.close();
  }
}

main().catch((error: unknown) => {
  console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
