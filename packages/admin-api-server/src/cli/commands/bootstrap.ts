import { Option, type Command } from 'commander';
import { bootstrapProject } from '../../store/management/projects';
import { hasPassword } from '../../store/model/account-tokens';
import type { CliIo } from '../io';
import { CliError, EMAIL, withDatabase } from '../shared';

/** The CLI's `bootstrap`: a project, an environment and its admin. */
export function registerBootstrapCommands(program: Command, io: CliIo): void {
  program
    .command('bootstrap')
    .description(
      'Create a project, an environment and its admin (holding the Admin role); print the env secret once.',
    )
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .requiredOption('--environment <name>', 'environment name, e.g. Production')
    .requiredOption('--admin-email <email>', 'email of the first admin')
    .addOption(
      new Option(
        '--environment-type <type>',
        'type of the environment when it is created (development environments accept schema uploads from agents)',
      )
        .choices(['development', 'production'])
        .default('production'),
    )
    .action(
      async (options: {
        project: string;
        environment: string;
        adminEmail: string;
        environmentType: 'development' | 'production';
      }) => {
        if (!EMAIL.test(options.adminEmail)) {
          throw new CliError(
            `--admin-email must be an email address such as ada@example.com; got "${options.adminEmail}".`,
          );
        }
        await withDatabase(io, false, async (knex) => {
          const result = await bootstrapProject(knex, {
            project: options.project,
            environment: options.environment,
            environmentType: options.environmentType,
            adminEmail: options.adminEmail,
          });
          for (const thing of result.existing) io.out(`Already exists: ${thing}.`);
          if (result.secret === undefined) {
            io.out('Nothing new to create; use the management API to rotate the env secret.');
            return;
          }
          io.out(
            `Project ${result.project.name}, environment ${options.environment} (${result.environmentType}), admin ${options.adminEmail} (Admin role) are ready.`,
          );
          if (!(await hasPassword(knex, result.userId))) {
            io.out(
              `${options.adminEmail} has no password yet: run "canopy-admin-api users set-password --email ${options.adminEmail}" or "users invite".`,
            );
          }
          io.out(
            'Env secret (CANOPY_ENV_SECRET of the agent); store it now: it is not shown again.',
          );
          io.out(result.secret);
        });
      },
    );
}
