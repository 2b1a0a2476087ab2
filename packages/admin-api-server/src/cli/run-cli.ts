import { CommanderError } from 'commander';
import { ConfigError } from '../config';
import { isApiError } from '../errors';
import { processIo, type CliIo } from './io';
import { buildProgram } from './program';
import { CliError } from './shared';

export { processIo, type CliIo } from './io';

/**
 * Runs the `canopy-admin-api` command line; resolves with the exit code. Errors are printed as
 * one sentence, never with a stack or a secret.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError || error instanceof ConfigError || isApiError(error)) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
