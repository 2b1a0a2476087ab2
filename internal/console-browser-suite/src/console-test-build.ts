/**
 * The suite runs the Console built with its test hooks (packages/console/src/app/test-hooks.ts:
 * render times, export modes, the attributes the suite waits on), which production builds leave
 * out. `CANOPY_CONSOLE_TEST_HOOKS=1` asks Vite for them; a build without them (its page lacks the
 * `canopy-test-hooks` meta) is removed first, so that it is rebuilt.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { buildConsoleIfNeeded, CONSOLE_BUILD_OUTPUT } from '@canopy/demo/src/console-build';

export async function buildConsoleWithTestHooks(): Promise<string> {
  process.env.CANOPY_CONSOLE_TEST_HOOKS = '1';
  if (
    existsSync(CONSOLE_BUILD_OUTPUT) &&
    !readFileSync(CONSOLE_BUILD_OUTPUT, 'utf8').includes('name="canopy-test-hooks"')
  ) {
    rmSync(CONSOLE_BUILD_OUTPUT);
  }
  return buildConsoleIfNeeded();
}
