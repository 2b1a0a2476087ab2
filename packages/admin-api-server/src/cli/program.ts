import { Command } from 'commander';
import { version } from '../../package.json';
import type { CliIo } from './io';
import { registerServerCommands } from './commands/server';
import { registerBootstrapCommands } from './commands/bootstrap';
import { registerUsersCommands } from './commands/users';
import { registerSessionCommands } from './commands/session';
import { registerTokensCommands } from './commands/tokens';
import { registerCheckpointsCommands } from './commands/checkpoints';
import { registerPartitionsCommands } from './commands/partitions';

/** The `canopy-admin-api` program: its options and output, then one group of commands a file. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('canopy-admin-api')
    .description('Canopy platform server: public administration API and token management.')
    .version(version, '-V, --version', 'print the version of @canopy/admin-api-server')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.trimEnd()),
      writeErr: (text) => io.err(text.trimEnd()),
    });

  registerServerCommands(program, io);
  registerBootstrapCommands(program, io);
  registerUsersCommands(program, io);
  registerSessionCommands(program, io);
  registerTokensCommands(program, io);
  registerCheckpointsCommands(program, io);
  registerPartitionsCommands(program, io);
  return program;
}
