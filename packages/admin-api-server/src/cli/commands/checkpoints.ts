import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { chainKeysOf } from '../../integrity/chain-keys';
import {
  checkpointChainHead,
  checkpointPublicKeys,
  listCheckpoints,
  verifyAgainstCheckpoints,
  type ChainCheckpoint,
  type CheckpointPublicKey,
} from '../../integrity/checkpoints';
import { findProjectByName } from '../../store/model';
import type { CliIo } from '../io';
import { CliError, withDatabase } from '../shared';

/** The CLI's `checkpoints export`, `checkpoints public-keys` and `checkpoints verify`. */
export function registerCheckpointsCommands(program: Command, io: CliIo): void {
  const checkpoints = program
    .command('checkpoints')
    .description('Signed checkpoints of activity-log chain heads, for auditors to keep elsewhere.');
  checkpoints
    .command('export')
    .description(
      'Sign the current chain head of a project, then print every checkpoint published for it (JSON lines, oldest first).',
    )
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .action(async (options: { project: string }) => {
      await withDatabase(io, true, async (knex) => {
        const project = await findProjectByName(knex, options.project);
        if (!project) {
          throw new CliError(
            `No project is named "${options.project}" (names are case sensitive).`,
          );
        }
        await checkpointChainHead(knex, project);
        for (const checkpoint of await listCheckpoints(knex, project.id)) {
          io.out(JSON.stringify(checkpoint));
        }
      });
    });
  checkpoints
    .command('public-keys')
    .description('Print the public keys (JWK, one per line) that verify checkpoints; pin them.')
    .action(async () => {
      const config = loadConfig(io.env);
      for (const key of checkpointPublicKeys(chainKeysOf(config))) io.out(JSON.stringify(key));
    });
  checkpoints
    .command('verify')
    .description(
      "Verify a project's chain, then that it still holds every checkpoint of a file (JSON lines) kept elsewhere; exits 1 at the first failure.",
    )
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .requiredOption('--file <path>', 'checkpoints exported earlier (JSON lines)')
    .option('--public-keys <path>', "pinned public keys (JSON lines); default: this server's")
    .action(async (options: { project: string; file: string; publicKeys?: string }) => {
      const readLines = async (path: string) => {
        const { readFile } = await import('node:fs/promises');
        return (await readFile(path, 'utf8'))
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line, index) => {
            try {
              return JSON.parse(line) as unknown;
            } catch {
              throw new CliError(`${path} line ${index + 1} is not JSON.`);
            }
          });
      };
      const given = (await readLines(options.file)) as ChainCheckpoint[];
      await withDatabase(io, true, async (knex, config) => {
        const project = await findProjectByName(knex, options.project);
        if (!project) {
          throw new CliError(
            `No project is named "${options.project}" (names are case sensitive).`,
          );
        }
        const publicKeys = options.publicKeys
          ? ((await readLines(options.publicKeys)) as CheckpointPublicKey[])
          : checkpointPublicKeys(chainKeysOf(config));
        const report = await verifyAgainstCheckpoints(knex, project.id, given, publicKeys);
        io.out(JSON.stringify(report));
        if (!report.valid || report.firstFailedCheckpoint) {
          const chainBreak = report.chain.firstBrokenLink;
          throw new CliError(
            report.firstFailedCheckpoint
              ? `Checkpoint at sequence ${report.firstFailedCheckpoint.sequence}: ${report.firstFailedCheckpoint.reason}.`
              : `The chain is broken at sequence ${chainBreak?.sequence}: ${chainBreak?.reason}.`,
          );
        }
        io.out(
          `The chain of ${project.name} verifies (${report.chain.checked} links) and holds all ${report.checkpointsChecked} checkpoints.`,
        );
      });
    });
}
