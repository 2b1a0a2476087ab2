import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's configuration directory for canopy-cloud: `CANOPY_CONFIG_DIR` when set, else
 * `$XDG_CONFIG_HOME/canopy`, else `%APPDATA%\canopy` on Windows, else `~/.config/canopy`.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CANOPY_CONFIG_DIR) return env.CANOPY_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'canopy');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'canopy');
  return join(homedir(), '.config', 'canopy');
}
