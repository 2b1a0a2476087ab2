import { Command } from 'commander';
import { getSession } from '../auth/session';
import { assertDirectoryFree, createProject } from '../bootstrap/create-project';
import { CliError } from '../cli-error';
import { createOutput } from '../output';
import { lookUpEnvironment } from '../platform/environment-lookup';
import { resolveServerUrl } from './server-url';

interface BootstrapOptions {
  envSecret?: string;
  databaseUrl?: string;
  directory: string;
  force?: boolean;
  serverUrl?: string;
  json?: boolean;
}

const ENV_SECRET = /^[0-9a-f]{64}$/;

/** `canopy-cloud bootstrap`: creates a customization directory for an environment. */
export function bootstrapCommand(): Command {
  return new Command('bootstrap')
    .description('Create a cloud-customizer directory for the environment of an env secret')
    .option('-e, --env-secret <secret>', 'environment secret (default: $CANOPY_ENV_SECRET)')
    .option('--database-url <uri>', 'database the agent reads (default: $DATABASE_URL)')
    .option('-d, --directory <path>', 'directory to create', 'cloud-customizer')
    .option('-f, --force', 'replace the directory if it exists')
    .option('--server-url <url>', 'platform URL (default: $CANOPY_SERVER_URL)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ canopy-cloud bootstrap --env-secret 3f9c…e1 --database-url postgres://localhost/shop',
    )
    .action(async (options: BootstrapOptions) => {
      const serverUrl = resolveServerUrl(options.serverUrl);
      const envSecret = options.envSecret ?? process.env.CANOPY_ENV_SECRET;
      if (!envSecret || !ENV_SECRET.test(envSecret)) {
        throw new CliError(
          'INVALID_INPUT',
          envSecret
            ? 'The env secret must be 64 lowercase hexadecimal characters; copy it again from the environment settings.'
            : 'No env secret: pass --env-secret or set CANOPY_ENV_SECRET (64 hexadecimal characters from the environment settings).',
        );
      }
      const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
      if (!databaseUrl) {
        throw new CliError(
          'INVALID_INPUT',
          'No database: pass --database-url or set DATABASE_URL (e.g. postgres://user:password@localhost:5432/shop).',
        );
      }
      assertDirectoryFree(options.directory, options.force === true);
      const output = createOutput(options.json === true);
      const session = await getSession(serverUrl, output, true);
      const environment = await output.step('Looking up the environment', () =>
        lookUpEnvironment(serverUrl, envSecret, session),
      );
      await createProject(
        {
          directory: options.directory,
          force: options.force === true,
          serverUrl,
          envSecret,
          databaseUrl,
          environment,
        },
        output,
      );
      output.result(
        { directory: options.directory, ...environment },
        [
          `Created ${options.directory} for ${environment.project.name} / ${environment.environment.name}.`,
          `Next: cd ${options.directory} && npm install && npm start`,
        ].join('\n'),
      );
    });
}
