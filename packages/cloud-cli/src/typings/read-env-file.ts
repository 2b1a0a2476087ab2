import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import { CliError } from '../cli-error';

/** Reads a `.env` file (KEY=value lines) of a customization directory. */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      'NOT_A_PROJECT',
      `There is no readable .env here (${path}); run this command inside a directory created by canopy-cloud bootstrap.`,
      { cause: error },
    );
  }
  return parseEnv(text) as Record<string, string>;
}
