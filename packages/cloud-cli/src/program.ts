import { Command, CommanderError } from 'commander';
import { version } from '../package.json';

/** Exit codes of `canopy-cloud`, so scripts can tell failures apart. */
export const ExitCode = {
  Ok: 0,
  /** Anything the server or the machine got wrong. */
  Failure: 1,
  /** The command line itself is wrong (unknown command or option, missing argument). */
  Usage: 2,
  /** The platform refused the credentials (missing, expired or revoked token, wrong secret). */
  Authentication: 3,
} as const;

/** Builds the `canopy-cloud` command-line program. */
export function createProgram(): Command {
  const program = new Command('canopy-cloud')
    .description('Bootstrap and maintain a Canopy cloud customization project.')
    .version(version, '-v, --version', 'print the version of canopy-cloud')
    .showHelpAfterError('(run canopy-cloud --help for usage)')
    .exitOverride();
  return program;
}

/** Runs the program on `argv` (as `process.argv`) and resolves to the process exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv]);
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return ExitCode.Ok;
      }
      return ExitCode.Usage;
    }
    throw error;
  }
}
