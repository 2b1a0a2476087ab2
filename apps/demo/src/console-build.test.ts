import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_BUILD_INPUTS, CONSOLE_BUILD_OUTPUT, consoleBuildState } from './console-build';

const dir = mkdtempSync(join(tmpdir(), 'canopy-console-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `path` under the scratch directory with its modification time `secondsAgo`. */
function file(path: string, secondsAgo: number): string {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, path);
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(full, time, time);
  return full;
}

it('asks for a build when the output is missing, older than a source, and not when it is fresh', () => {
  const inputs = [join(dir, 'src'), file('index.html', 300)];
  file('src/app/main.tsx', 200);
  const output = join(dir, 'dist', 'app', 'index.html');
  expect(consoleBuildState(inputs, output)).toEqual({ reason: 'missing' });

  file('dist/app/index.html', 100);
  expect(consoleBuildState(inputs, output)).toBeUndefined();

  // A test file changing does not change the build.
  file('src/app/main.test.tsx', 10);
  expect(consoleBuildState(inputs, output)).toBeUndefined();

  const changed = file('src/app/pages/orders.tsx', 10);
  expect(consoleBuildState(inputs, output)).toEqual({ reason: 'stale', changed });
});

it('watches the sources the console build reads, including the protocol package it bundles', () => {
  expect(CONSOLE_BUILD_OUTPUT).toMatch(/packages\/console\/dist\/app\/index\.html$/);
  for (const input of ['console/src/app', 'console/vite.config.ts', 'platform-protocol/src'])
    expect(CONSOLE_BUILD_INPUTS.some((path) => path.endsWith(input))).toBe(true);
  // Every input exists in the repository (a renamed folder would silently stop counting).
  expect(CONSOLE_BUILD_INPUTS.filter((path) => !existsSync(path))).toEqual([]);
});
