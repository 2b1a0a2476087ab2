import { Command, CommanderError } from 'commander';
import { version } from '../package.json';
import { isCliError } from './cli-error';
import { bootstrapCommand } from './commands/bootstrap-command';
import { loginCommand } from './commands/login-command';
import { updateTypingsCommand } from './commands/update-typings-command';
import { ExitCode } from './exit-code';

export { ExitCode } from './exit-code';

/** Builds the `canopy-cloud` command-line program. */
export function createProgram(): Command {
  const program = new Command('canopy-cloud')
    .description('Bootstrap and maintain a Canopy customization project.')
    .version(version, '-v, --version', 'print the version of canopy-cloud')
    .showHelpAfterError('(run canopy-cloud --help for usage)')
    .exitOverride();
  for (const command of [loginCommand(), bootstrapCommand(), updateTypingsCommand()]) {
    program.addCommand(command.showHelpAfterError().exitOverride());
  }
  return program;
}

/**
 * Runs the program on `argv` (as `process.argv`) and resolves to the process exit code. Failures
 * are printed as one sentence on stderr (or `{"ok":false,"error":{code,message}}` on stdout with
 * `--json`), never as a stack trace.
 */
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
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const code = isCliError(error) ? error.code : 'UNEXPECTED';
    const message = isCliError(error)
      ? error.message
      : `Unexpected failure (${error instanceof Error ? error.message : String(error)}); please report it with the command you ran.`;
    if (argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
    } else {
      process.stderr.write(`canopy-cloud: ${message}\n`);
    }
    return isCliError(error) ? error.exitCode : ExitCode.Failure;
  }
}
