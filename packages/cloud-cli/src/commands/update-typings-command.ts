import { Command } from 'commander';
import { CliError } from '../cli-error';
import { createOutput } from '../output';
import { generateTypings } from '../typings/generate-typings';
import { projectFiles } from '../typings/project-files';
import { readEnvFile } from '../typings/read-env-file';

/** `canopy-cloud update-typings`: regenerates src/typings.ts of the current directory. */
export function updateTypingsCommand(): Command {
  return new Command('update-typings')
    .description(
      'Regenerate src/typings.ts from the database structure and the customizations in src/index.ts',
    )
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample:\n  $ cd cloud-customizer && canopy-cloud update-typings')
    .action(async (options: { json?: boolean }) => {
      const directory = process.cwd();
      const files = projectFiles(directory);
      const env = await readEnvFile(files.env);
      const missing = ['DATABASE_URL', 'CANOPY_ENV_SECRET', 'CANOPY_AUTH_SECRET'].filter(
        (name) => !env[name],
      );
      if (missing.length > 0) {
        throw new CliError(
          'NOT_A_PROJECT',
          `.env lacks ${missing.join(', ')}; add them, or bootstrap the directory again with canopy-cloud bootstrap.`,
        );
      }
      const output = createOutput(options.json === true);
      await output.step('Reading the database structure and generating the typings', () =>
        generateTypings({
          directory,
          databaseUrl: env.DATABASE_URL as string,
          envSecret: env.CANOPY_ENV_SECRET as string,
          authSecret: env.CANOPY_AUTH_SECRET as string,
        }),
      );
      output.result({ typingsPath: files.typings }, `Updated ${files.typings}.`);
    });
}
