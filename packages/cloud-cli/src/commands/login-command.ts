import { Command } from 'commander';
import { login } from '../auth/session';
import { credentialsPath } from '../auth/token-store';
import { createOutput } from '../output';
import { resolveServerUrl } from './server-url';

/** `canopy-cloud login`: device login, token stored in the user's configuration directory. */
export function loginCommand(): Command {
  return new Command('login')
    .description('Log in to the Canopy platform (OAuth device flow) and store the token')
    .option('--server-url <url>', 'platform URL (default: $CANOPY_SERVER_URL)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ canopy-cloud login --server-url https://canopy.example.com',
    )
    .action(async (options: { serverUrl?: string; json?: boolean }) => {
      const serverUrl = resolveServerUrl(options.serverUrl);
      const output = createOutput(options.json === true);
      const token = await login(serverUrl, output);
      output.result(
        {
          serverUrl,
          credentialsPath: credentialsPath(),
          expiresAt: token.expiresAt ? new Date(token.expiresAt).toISOString() : null,
        },
        `Logged in to ${serverUrl}; the token is stored in ${credentialsPath()}.`,
      );
    });
}
