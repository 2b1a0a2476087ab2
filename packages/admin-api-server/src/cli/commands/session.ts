import type { Command } from 'commander';
import { signSessionToken } from '../../auth/platform-tokens';
import { findUserByEmail } from '../../store/model';
import type { CliIo } from '../io';
import { CliError, withDatabase } from '../shared';

/** The CLI's `session`: a session token for a user. */
export function registerSessionCommands(program: Command, io: CliIo): void {
  program
    .command('session')
    .description(
      'Print a session token of a user for the management API (Authorization: Bearer …).',
    )
    .requiredOption('--user <email>', 'email of the user')
    .option('--expires-in-hours <hours>', 'lifetime in hours (default 12)')
    .action(async (options: { user: string; expiresInHours?: string }) => {
      const hours = options.expiresInHours ?? '12';
      if (!/^[1-9]\d{0,3}$/.test(hours)) {
        throw new CliError('--expires-in-hours must be a whole number between 1 and 9999.');
      }
      await withDatabase(io, true, async (knex, config) => {
        const user = await findUserByEmail(knex, options.user);
        if (!user) throw new CliError(`No user has the email "${options.user}".`);
        io.out(
          signSessionToken(config.signingKeys, {
            userId: user.id,
            sso: false,
            expiresAt: new Date(Date.now() + Number(hours) * 3_600_000),
          }),
        );
      });
    });
}
