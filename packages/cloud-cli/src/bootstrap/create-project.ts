import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError } from '../cli-error';
import type { Output } from '../output';
import type { EnvironmentInfo } from '../platform/environment-lookup';
import { generateTypings } from '../typings/generate-typings';
import { projectTemplates } from './templates';

/** What `bootstrap` creates a directory from. */
export interface ProjectRequest {
  directory: string;
  force: boolean;
  serverUrl: string;
  envSecret: string;
  databaseUrl: string;
  environment: EnvironmentInfo;
}

/** Refuses an existing `directory` unless `force`; call before any network work. */
export function assertDirectoryFree(directory: string, force: boolean): void {
  if (!force && existsSync(directory)) {
    throw new CliError(
      'DIRECTORY_EXISTS',
      `The directory ${directory} already exists; choose another with --directory, or pass --force to replace it.`,
    );
  }
}

/**
 * Creates the customization directory: everything is written and the typings generated in a
 * hidden sibling directory, which is renamed into place only once complete. An interruption
 * (Ctrl-C) or a failure removes the sibling, so no half-written directory is left.
 */
export async function createProject(request: ProjectRequest, output: Output): Promise<void> {
  const target = resolve(request.directory);
  assertDirectoryFree(target, request.force);
  const staging = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  const cleanUp = () => rm(staging, { recursive: true, force: true });
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C while cleaning up must not kill the process before the removal ends.
    if (interrupted) return;
    interrupted = true;
    void cleanUp().finally(() => {
      output.notice(
        `Interrupted: nothing was created in ${target}; run canopy-cloud bootstrap again.`,
      );
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const files = projectTemplates({
      name: basename(target),
      serverUrl: request.serverUrl,
      envSecret: request.envSecret,
      authSecret: randomBytes(32).toString('hex'),
      databaseUrl: request.databaseUrl,
      environment: request.environment,
    });
    await output.step(`Writing ${basename(target)}`, async () => {
      for (const [path, content] of Object.entries(files)) {
        const absolute = join(staging, path);
        await mkdir(dirname(absolute), { recursive: true });
        await writeFile(absolute, content, { mode: path === '.env' ? 0o600 : 0o644 });
      }
    });
    await output.step('Reading the database structure and generating the typings', () =>
      generateTypings({
        directory: staging,
        databaseUrl: request.databaseUrl,
        envSecret: request.envSecret,
        authSecret: 'canopy-cloud-typings',
      }),
    );
    if (request.force) await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } catch (error) {
    await cleanUp();
    throw diskError(error, target);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function diskError(error: unknown, target: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC') {
    return new CliError(
      'DISK_ERROR',
      `Cannot write ${target} (${code}); run bootstrap in a directory you can write to, with free space.`,
      { cause: error },
    );
  }
  return error;
}
