import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { openDatabase } from '../../database/open-database';
import { migrateToLatest } from '../../migrations';
import { createAdminApiServer } from '../../server';
import type { CliIo } from '../io';

/** The CLI's `serve` and `migrate`. */
export function registerServerCommands(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('Apply migrations, then serve the API on PORT until SIGTERM.')
    .action(async () => {
      const server = await createAdminApiServer(loadConfig(io.env));
      try {
        await server.listen();
      } catch (error) {
        await server.close();
        throw error;
      }
      const signal = await io.stopSignal();
      io.err(`${signal} received: finishing in-flight requests, then stopping.`);
      await server.close();
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .action(async () => {
      const config = loadConfig(io.env, { requireSigningKeys: false });
      const database = await openDatabase(config.database);
      try {
        const applied = await migrateToLatest(database.knex);
        io.out(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      } finally {
        await database.close();
      }
    });
}
