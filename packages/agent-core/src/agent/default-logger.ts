import type { Logger } from '../toolkit/interfaces/logger';

/**
 * The logger used when the options give none: one line per message on the console, errors and
 * warnings on stderr.
 */
export function createDefaultLogger(): Logger {
  return (level, message, error) => {
    const line = `${new Date().toISOString()} [canopy] ${level.toUpperCase()} ${message}`;
    const detail = error instanceof Error ? `\n${error.stack ?? error.message}` : '';
    if (level === 'Error' || level === 'Warn') console.error(line + detail);
    else console.log(line + detail);
  };
}
