import type { Command } from 'commander';
import { accountLink } from '../../routes/account/password-page';
import { hasPassword, issueAccountToken } from '../../store/model/account-tokens';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  setUserPassword,
} from '../../store/model/passwords';
import type { CliIo } from '../io';
import { CliError, userForOperator, withDatabase } from '../shared';

/** The CLI's `users set-password` and `users invite`. */
export function registerUsersCommands(program: Command, io: CliIo): void {
  const users = program
    .command('users')
    .description(
      'Operator commands on user accounts (server-level: no project admin can do this).',
    );
  users
    .command('set-password')
    .description(
      "Set a user's password, read from CANOPY_NEW_PASSWORD or stdin (a prompt on a terminal); never echoed or logged. Revokes the user's sessions.",
    )
    .requiredOption('--email <email>', 'email of the user')
    .option('--create', 'create the account when no user has this email')
    .action(async (options: { email: string; create?: boolean }) => {
      const password = io.env.CANOPY_NEW_PASSWORD ?? (await io.readSecret('New password: '));
      if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
        throw new CliError(
          `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
        );
      }
      await withDatabase(io, false, async (knex) => {
        const user = await userForOperator(knex, options);
        await setUserPassword(knex, user.id, password);
        io.out(`Password of ${user.email} set; their earlier sessions are revoked.`);
      });
    });
  users
    .command('invite')
    .description(
      'Print a one-time link with which the user sets their own password: an invitation (valid 7 days) for an account without a password, else a reset link (valid 1 hour). Earlier links of the account stop working.',
    )
    .requiredOption('--email <email>', 'email of the user')
    .option('--create', 'create the account when no user has this email')
    .action(async (options: { email: string; create?: boolean }) => {
      await withDatabase(io, false, async (knex, config) => {
        const user = await userForOperator(knex, options);
        const purpose = (await hasPassword(knex, user.id)) ? 'reset' : 'invitation';
        const issued = await issueAccountToken(knex, user.id, purpose);
        io.out(
          `${purpose === 'reset' ? 'Password reset' : 'Invitation'} link for ${user.email}, valid until ${issued.expiresAt.toISOString()}; hand it to them only:`,
        );
        io.out(
          config.publicUrl
            ? accountLink(config.publicUrl, issued.token)
            : `${accountLink('', issued.token)} (prefix with the server's URL, or set CANOPY_PUBLIC_URL)`,
        );
      });
    });
}
