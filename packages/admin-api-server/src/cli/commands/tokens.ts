import type { Command } from 'commander';
import { parseScopes } from '../../auth/scopes';
import { listApplicationTokens, revokeApplicationToken } from '../../store/application-tokens';
import { findProjectByName, findUserByEmail } from '../../store/model';
import { issueApplicationToken } from '../../tokens/issue-application-token';
import type { CliIo } from '../io';
import { CliError, withDatabase } from '../shared';

/** The CLI's `tokens create`, `tokens list` and `tokens revoke`. */
export function registerTokensCommands(program: Command, io: CliIo): void {
  const tokens = program.command('tokens').description('Manage application tokens.');
  tokens
    .command('create')
    .description('Create a token for a project admin; the token is printed alone on the last line.')
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .requiredOption('--user <email>', 'email of the creating user (must hold the Admin role)')
    .requiredOption('--name <name>', 'a name to recognize the token by')
    .requiredOption(
      '--scopes <list>',
      'comma-separated: activity_logs:read, admin_logs:read, notes:read, notes:write, all',
    )
    .option('--expires-in-days <days>', 'lifetime in days (default TOKEN_DEFAULT_LIFETIME_DAYS)')
    .action(
      async (options: {
        project: string;
        user: string;
        name: string;
        scopes: string;
        expiresInDays?: string;
      }) => {
        let scopes;
        try {
          scopes = parseScopes(options.scopes);
        } catch (error) {
          throw new CliError(`--scopes: ${(error as Error).message}`);
        }
        if (options.expiresInDays !== undefined && !/^[1-9]\d{0,4}$/.test(options.expiresInDays)) {
          throw new CliError(
            '--expires-in-days must be a whole number of days between 1 and 99999.',
          );
        }
        await withDatabase(io, true, async (knex, config) => {
          const project = await findProjectByName(knex, options.project);
          if (!project)
            throw new CliError(
              `No project is named "${options.project}" (names are case sensitive).`,
            );
          const user = await findUserByEmail(knex, options.user);
          if (!user) throw new CliError(`No user has the email "${options.user}".`);
          const days = Number(options.expiresInDays ?? config.defaultTokenLifetimeDays);
          const { token, row } = await issueApplicationToken(knex, config.signingKeys, {
            project,
            userId: user.id,
            name: options.name,
            scopes,
            expiresAt: new Date(Date.now() + days * 86_400_000),
            viaSso: false,
          });
          io.out(
            `Created token ${row.id} "${row.name}" for ${user.email} on project ${project.name}`,
          );
          io.out(`Scopes: ${row.scopes.join(', ')}; expires ${row.expires_at.toISOString()}`);
          io.out('Store it now: it is not shown again.');
          io.out(token);
        });
      },
    );
  tokens
    .command('list')
    .description('List the live tokens of a project (never the tokens themselves).')
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .action(async (options: { project: string }) => {
      await withDatabase(io, false, async (knex) => {
        const project = await findProjectByName(knex, options.project);
        if (!project)
          throw new CliError(
            `No project is named "${options.project}" (names are case sensitive).`,
          );
        const rows = await listApplicationTokens(knex, project.id);
        if (rows.length === 0) {
          io.out(`Project ${project.name} has no live token.`);
          return;
        }
        io.out(['ID', 'NAME', 'USER', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES'].join('\t'));
        for (const row of rows) {
          io.out(
            [
              row.id,
              row.name,
              row.user_email,
              row.scopes.join(','),
              row.created_at.toISOString(),
              row.last_used_at?.toISOString() ?? 'never',
              row.expires_at.toISOString(),
            ].join('\t'),
          );
        }
      });
    });
  tokens
    .command('revoke')
    .description('Revoke a token by id; effective on its very next request.')
    .argument('<id>', 'token id (from tokens list)')
    .action(async (id: string) => {
      if (!/^[1-9]\d{0,9}$/.test(id))
        throw new CliError(`Token id must be a positive integer; got "${id}".`);
      await withDatabase(io, false, async (knex) => {
        if (!(await revokeApplicationToken(knex, Number(id)))) {
          throw new CliError(`No live token has id ${id}.`);
        }
        io.out(`Revoked token ${id}.`);
      });
    });
}
