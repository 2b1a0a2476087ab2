import { Command, CommanderError, Option } from 'commander';
import { version } from '../../package.json';
import type { Knex } from 'knex';
import { signSessionToken } from '../auth/platform-tokens';
import { parseScopes } from '../auth/scopes';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../database/open-database';
import { isApiError } from '../errors';
import { chainKeysOf, useChainKeys } from '../integrity/chain-keys';
import {
  checkpointChainHead,
  checkpointPublicKeys,
  listCheckpoints,
  verifyAgainstCheckpoints,
  type ChainCheckpoint,
  type CheckpointPublicKey,
} from '../integrity/checkpoints';
import { migrateToLatest } from '../migrations';
import {
  DEFAULT_MONTHS_AHEAD,
  ensureActivityLogPartitions,
  listActivityLogPartitions,
} from '../store/activity-log-partitions';
import { purgeExpiredActivityLogs } from '../store/activity-log-retention';
import { createAdminApiServer } from '../server';
import { listApplicationTokens, revokeApplicationToken } from '../store/application-tokens';
import { bootstrapProject } from '../store/management/projects';
import { accountLink } from '../routes/account/password-page';
import { createUser, findProjectByName, findUserByEmail } from '../store/model';
import { hasPassword, issueAccountToken } from '../store/model/account-tokens';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  setUserPassword,
} from '../store/model/passwords';
import { issueApplicationToken } from '../tokens/issue-application-token';

/** Where the CLI writes and what it reads; the real process by default, buffers in tests. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGTERM/SIGINT); used by `serve`. */
  stopSignal(): Promise<string>;
  /**
   * Reads a secret without echoing it: a prompt on a terminal, else the first line of stdin.
   * `users set-password` reads the new password through this unless `CANOPY_NEW_PASSWORD` is set.
   */
  readSecret(prompt: string): Promise<string>;
}

/** The process's own IO. */
export const processIo: CliIo = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    }),
  readSecret: readSecretFromStdin,
};

/** Reads one line from stdin; on a terminal the typed characters are not echoed. */
async function readSecretFromStdin(prompt: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write(prompt);
  const rl = createInterface({ input: process.stdin, terminal });
  if (terminal) {
    // Nothing the user types is written back to the terminal.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
  }
  try {
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
    if (terminal) process.stderr.write('\n');
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

class CliError extends Error {}

async function withDatabase<T>(
  io: CliIo,
  requireSigningKeys: boolean,
  run: (knex: Knex, config: ReturnType<typeof loadConfig>) => Promise<T>,
): Promise<T> {
  const config = loadConfig(io.env, { requireSigningKeys });
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.knex);
    if (config.signingKeys.length > 0 || config.auditChainKeys) {
      useChainKeys(database.knex, chainKeysOf(config));
    }
    return await run(database.knex, config);
  } finally {
    await database.close();
  }
}

function buildProgram(io: CliIo): Command {
  const program = new Command('canopy-admin-api')
    .description('Canopy platform server: public administration API and token management.')
    .version(version, '-V, --version', 'print the version of @canopy/admin-api-server')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.trimEnd()),
      writeErr: (text) => io.err(text.trimEnd()),
    });

  program
    .command('serve')
    .description('Apply migrations, then serve the API on PORT until SIGTERM.')
    .action(async () => {
      const server = await createAdminApiServer(loadConfig(io.env));
      try {
        await server.listen();
      } catch (error) {
        await server.close();
        throw error;
      }
      const signal = await io.stopSignal();
      io.err(`${signal} received: finishing in-flight requests, then stopping.`);
      await server.close();
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit.')
    .action(async () => {
      const config = loadConfig(io.env, { requireSigningKeys: false });
      const database = await openDatabase(config.database);
      try {
        const applied = await migrateToLatest(database.knex);
        io.out(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      } finally {
        await database.close();
      }
    });

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

  const users = program
    .command('users')
    .description(
      'Operator commands on user accounts (server-level: no project admin can do this).',
    );
  users
    .command('set-password')
    .description(
      "Set a user's password, read from CANOPY_NEW_PASSWORD or stdin (a prompt on a terminal); never echoed or logged. Revokes the user's sessions.",
    )
    .requiredOption('--email <email>', 'email of the user')
    .option('--create', 'create the account when no user has this email')
    .action(async (options: { email: string; create?: boolean }) => {
      const password = io.env.CANOPY_NEW_PASSWORD ?? (await io.readSecret('New password: '));
      if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
        throw new CliError(
          `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
        );
      }
      await withDatabase(io, false, async (knex) => {
        const user = await userForOperator(knex, options);
        await setUserPassword(knex, user.id, password);
        io.out(`Password of ${user.email} set; their earlier sessions are revoked.`);
      });
    });
  users
    .command('invite')
    .description(
      'Print a one-time link with which the user sets their own password: an invitation (valid 7 days) for an account without a password, else a reset link (valid 1 hour). Earlier links of the account stop working.',
    )
    .requiredOption('--email <email>', 'email of the user')
    .option('--create', 'create the account when no user has this email')
    .action(async (options: { email: string; create?: boolean }) => {
      await withDatabase(io, false, async (knex, config) => {
        const user = await userForOperator(knex, options);
        const purpose = (await hasPassword(knex, user.id)) ? 'reset' : 'invitation';
        const issued = await issueAccountToken(knex, user.id, purpose);
        io.out(
          `${purpose === 'reset' ? 'Password reset' : 'Invitation'} link for ${user.email}, valid until ${issued.expiresAt.toISOString()}; hand it to them only:`,
        );
        io.out(
          config.publicUrl
            ? accountLink(config.publicUrl, issued.token)
            : `${accountLink('', issued.token)} (prefix with the server's URL, or set CANOPY_PUBLIC_URL)`,
        );
      });
    });

  program
    .command('session')
    .description(
      'Print a session token of a user for the management API (Authorization: Bearer …).',
    )
    .requiredOption('--user <email>', 'email of the user')
    .option('--expires-in-hours <hours>', 'lifetime in hours (default 12)')
    .action(async (options: { user: string; expiresInHours?: string }) => {
      const hours = options.expiresInHours ?? '12';
      if (!/^[1-9]\d{0,3}$/.test(hours)) {
        throw new CliError('--expires-in-hours must be a whole number between 1 and 9999.');
      }
      await withDatabase(io, true, async (knex, config) => {
        const user = await findUserByEmail(knex, options.user);
        if (!user) throw new CliError(`No user has the email "${options.user}".`);
        io.out(
          signSessionToken(config.signingKeys, {
            userId: user.id,
            sso: false,
            expiresAt: new Date(Date.now() + Number(hours) * 3_600_000),
          }),
        );
      });
    });

  const tokens = program.command('tokens').description('Manage application tokens.');
  tokens
    .command('create')
    .description('Create a token for a project admin; the token is printed alone on the last line.')
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .requiredOption('--user <email>', 'email of the creating user (must hold the Admin role)')
    .requiredOption('--name <name>', 'a name to recognize the token by')
    .requiredOption(
      '--scopes <list>',
      'comma-separated: activity_logs:read, admin_logs:read, notes:read, notes:write, all',
    )
    .option('--expires-in-days <days>', 'lifetime in days (default TOKEN_DEFAULT_LIFETIME_DAYS)')
    .action(
      async (options: {
        project: string;
        user: string;
        name: string;
        scopes: string;
        expiresInDays?: string;
      }) => {
        let scopes;
        try {
          scopes = parseScopes(options.scopes);
        } catch (error) {
          throw new CliError(`--scopes: ${(error as Error).message}`);
        }
        if (options.expiresInDays !== undefined && !/^[1-9]\d{0,4}$/.test(options.expiresInDays)) {
          throw new CliError(
            '--expires-in-days must be a whole number of days between 1 and 99999.',
          );
        }
        await withDatabase(io, true, async (knex, config) => {
          const project = await findProjectByName(knex, options.project);
          if (!project)
            throw new CliError(
              `No project is named "${options.project}" (names are case sensitive).`,
            );
          const user = await findUserByEmail(knex, options.user);
          if (!user) throw new CliError(`No user has the email "${options.user}".`);
          const days = Number(options.expiresInDays ?? config.defaultTokenLifetimeDays);
          const { token, row } = await issueApplicationToken(knex, config.signingKeys, {
            project,
            userId: user.id,
            name: options.name,
            scopes,
            expiresAt: new Date(Date.now() + days * 86_400_000),
            viaSso: false,
          });
          io.out(
            `Created token ${row.id} "${row.name}" for ${user.email} on project ${project.name}`,
          );
          io.out(`Scopes: ${row.scopes.join(', ')}; expires ${row.expires_at.toISOString()}`);
          io.out('Store it now: it is not shown again.');
          io.out(token);
        });
      },
    );
  tokens
    .command('list')
    .description('List the live tokens of a project (never the tokens themselves).')
    .requiredOption('--project <name>', 'project name (case sensitive)')
    .action(async (options: { project: string }) => {
      await withDatabase(io, false, async (knex) => {
        const project = await findProjectByName(knex, options.project);
        if (!project)
          throw new CliError(
            `No project is named "${options.project}" (names are case sensitive).`,
          );
        const rows = await listApplicationTokens(knex, project.id);
        if (rows.length === 0) {
          io.out(`Project ${project.name} has no live token.`);
          return;
        }
        io.out(['ID', 'NAME', 'USER', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES'].join('\t'));
        for (const row of rows) {
          io.out(
            [
              row.id,
              row.name,
              row.user_email,
              row.scopes.join(','),
              row.created_at.toISOString(),
              row.last_used_at?.toISOString() ?? 'never',
              row.expires_at.toISOString(),
            ].join('\t'),
          );
        }
      });
    });
  tokens
    .command('revoke')
    .description('Revoke a token by id; effective on its very next request.')
    .argument('<id>', 'token id (from tokens list)')
    .action(async (id: string) => {
      if (!/^[1-9]\d{0,9}$/.test(id))
        throw new CliError(`Token id must be a positive integer; got "${id}".`);
      await withDatabase(io, false, async (knex) => {
        if (!(await revokeApplicationToken(knex, Number(id)))) {
          throw new CliError(`No live token has id ${id}.`);
        }
        io.out(`Revoked token ${id}.`);
      });
    });
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
  return program;
}

/** The account of `--email`; created (without a password) with `--create`. */
async function userForOperator(knex: Knex, options: { email: string; create?: boolean }) {
  const { email } = options;
  if (!EMAIL.test(email)) throw new CliError(`--email must be an email address; got "${email}".`);
  const user = await findUserByEmail(knex, email);
  if (user) return user;
  if (!options.create) {
    throw new CliError(`No user has the email "${email}" (add --create to create one).`);
  }
  return createUser(knex, { email });
}

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
