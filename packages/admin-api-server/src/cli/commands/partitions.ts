import type { Command } from 'commander';
import {
  DEFAULT_MONTHS_AHEAD,
  ensureActivityLogPartitions,
  listActivityLogPartitions,
} from '../../store/activity-log-partitions';
import { purgeExpiredActivityLogs } from '../../store/activity-log-retention';
import type { CliIo } from '../io';
import { CliError, withDatabase } from '../shared';

/** The CLI's `partitions create`, `partitions list` and `retention`. */
export function registerPartitionsCommands(program: Command, io: CliIo): void {
  const partitions = program
    .command('partitions')
    .description(
      'Monthly partitions of the activity logs (PostgreSQL range partitions, UTC months).',
    );
  partitions
    .command('create')
    .description(
      'Create the partitions of the current month and of the next N months unless they exist (the server does this at start and daily); safe next to running servers.',
    )
    .option('--months <n>', `months ahead of the current one (default ${DEFAULT_MONTHS_AHEAD})`)
    .action(async (options: { months?: string }) => {
      const months = options.months ?? String(DEFAULT_MONTHS_AHEAD);
      if (!/^\d{1,4}$/.test(months) || Number(months) > 1200) {
        throw new CliError('--months must be a whole number from 0 to 1200.');
      }
      await withDatabase(io, false, async (knex) => {
        const created = await ensureActivityLogPartitions(knex, { monthsAhead: Number(months) });
        io.out(
          created.length > 0 ? `Created: ${created.join(', ')}` : 'Every partition already exists.',
        );
      });
    });
  partitions
    .command('list')
    .description('List the partitions of the activity logs, oldest first, with estimated rows.')
    .action(async () => {
      await withDatabase(io, false, async (knex) => {
        io.out(['NAME', 'FROM', 'TO', 'ESTIMATED ROWS'].join('\t'));
        for (const partition of await listActivityLogPartitions(knex)) {
          io.out(
            [
              partition.name,
              partition.from?.toISOString() ?? 'default',
              partition.to?.toISOString() ?? 'default',
              partition.estimatedRows < 0 ? 'unknown' : String(partition.estimatedRows),
            ].join('\t'),
          );
        }
      });
    });

  program
    .command('retention')
    .description(
      "Apply each project's activity-log retention now (the server does it daily): purge expired logs, drop partitions no project keeps, record each purge in the admin log.",
    )
    .action(async () => {
      await withDatabase(io, true, async (knex) => {
        const report = await purgeExpiredActivityLogs(knex);
        if (!report.ran) {
          io.out('Another process is applying the retention right now; nothing done.');
          return;
        }
        for (const project of report.projects) {
          io.out(
            `${project.projectName}: ${project.rowsRemoved} logs created before ${project.cutoff.toISOString()} purged (keeps ${project.retentionMonths} months; chain anchored at link ${project.anchorSequence}).`,
          );
        }
        if (report.partitionsDropped.length > 0) {
          io.out(`Dropped partitions: ${report.partitionsDropped.join(', ')}`);
        }
        if (report.projects.length === 0) io.out('Nothing to purge.');
      });
    });
}
