#!/usr/bin/env node
// Runs every workspace test suite in one jest run, then the console's unit tests (Vitest), its
// browser suite (Playwright on Debian's Chromium) and the first run of the README's demo command
// in a fresh clone (internal/console-browser-suite/src/first-run.ts), and ends with the one line
// CI reads:
// "N passed, N failed". Extra arguments go to jest (e.g. `pnpm test --selectProjects agent-core`)
// and then only jest runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Some suites load a package's build (the console's files, the CLI binaries): a fresh clone builds
// first, a checkout built since its last change does not.
if (!ensureBuilt(root)) {
  console.log('The build failed: no test was run.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const outDir = mkdtempSync(join(tmpdir(), 'canopy-jest-'));
const outFile = join(outDir, 'results.json');

// PGlite (embedded PostgreSQL) loads its WASM through a dynamic import, which jest's VM only
// allows with this flag.
const nodeOptions = [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings']
  .filter(Boolean)
  .join(' ');

const jestBin = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
// `--forceExit`: a test that times out mid-request leaves its server open, and jest would then
// wait for it forever after the run (seen under CI load); the timed-out test still fails the run.
const result = spawnSync(
  process.execPath,
  [jestBin, '--json', `--outputFile=${outFile}`, '--forceExit', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions } },
);

let passed = 0;
let failed = 0;
let skipped = 0;
// Every failure by name, printed again just above the last line: a long run's log is often read
// from its end only, and the counts alone do not say what to look at.
const failures = [];
const firstLines = (text, count = 4) =>
  String(text ?? '')
    // Colour codes from jest's and Vitest's messages.
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, count);
const relative = (file) => (file.startsWith(root) ? file.slice(root.length + 1) : file);
// jest's and Vitest's JSON reports share this shape.
const collectFailures = (runner, summary) => {
  for (const file of summary.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests)
      failures.push({
        where: `${runner} ${relative(file.name)} › ${test.fullName ?? test.title}`,
        lines: firstLines((test.failureMessages ?? []).join('\n')),
      });
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push({
        where: `${runner} ${relative(file.name)} (the file did not run)`,
        lines: firstLines(file.message),
      });
  }
};
if (existsSync(outFile)) {
  const summary = JSON.parse(readFileSync(outFile, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests;
  skipped = summary.numPendingTests + summary.numTodoTests;
  // A suite that fails to load has no failed test but must still fail the run.
  failed += summary.numRuntimeErrorTestSuites;
  collectFailures('jest', summary);
} else failures.push({ where: 'jest wrote no results', lines: [] });
let status = result.status ?? 1;

// The repository's own scripts (node:test): counted from the TAP summary.
if (process.argv.length === 2) {
  const scripts = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-reporter=tap',
      ...readdirSync(join(root, 'scripts'))
        .filter((file) => file.endsWith('.test.mjs'))
        .map((file) => join('scripts', file)),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  process.stdout.write(
    scripts.stdout
      .split('\n')
      .filter((line) => /^(not ok|# (pass|fail))/.test(line))
      .join('\n') + '\n',
  );
  const count = (name) =>
    Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(scripts.stdout)?.[1] ?? 0);
  for (const line of scripts.stdout.split('\n'))
    if (/^\s*not ok/.test(line) && !/# SKIP/.test(line))
      failures.push({ where: `node:test ${line.trim()}`, lines: [] });
  passed += count('pass');
  failed += count('fail');
  if (scripts.status !== 0) {
    status = status || 1;
    if (count('fail') === 0) failed += 1;
  }
}

// The console: Vitest for its unit tests, its own runner for the browser suite (a focused jest
// run, with arguments, skips them).
if (process.argv.length === 2) {
  const consoleDir = join(root, 'packages', 'console');
  const vitestFile = join(outDir, 'vitest.json');
  const vitest = spawnSync(
    process.execPath,
    [
      join(consoleDir, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestFile}`,
    ],
    { cwd: consoleDir, stdio: 'inherit' },
  );
  if (existsSync(vitestFile)) {
    const summary = JSON.parse(readFileSync(vitestFile, 'utf8'));
    passed += summary.numPassedTests;
    failed += summary.numFailedTests + (summary.numFailedTestSuites ?? 0);
    collectFailures('vitest', summary);
  } else {
    failed += 1;
    failures.push({ where: 'vitest wrote no results', lines: [] });
  }
  if (vitest.status !== 0) status = status || 1;

  // Each browser run writes its counts to a results file, added to the final line.
  const suiteDir = join(root, 'internal', 'console-browser-suite');
  const browserRun = (name, script, args) => {
    const browserFile = join(outDir, `browser-${name}.json`);
    const browser = spawnSync(
      process.execPath,
      [
        join(suiteDir, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        script,
        ...args,
        '--results',
        browserFile,
      ],
      { cwd: suiteDir, stdio: 'inherit' },
    );
    if (existsSync(browserFile)) {
      const summary = JSON.parse(readFileSync(browserFile, 'utf8'));
      passed += summary.passed;
      failed += summary.failed;
      for (const test of summary.results ?? [])
        if (!test.ok)
          failures.push({ where: `browser (${name}) ${test.name}`, lines: firstLines(test.error) });
    } else {
      failed += 1;
      failures.push({ where: `browser (${name}) wrote no results`, lines: [] });
    }
    if (browser.status !== 0) status = status || 1;
  };
  // The browser suite against our agent, then its core against the reference agent from npm, so
  // the console stays free of anything Canopy-agent-specific.
  browserRun('canopy', 'src/run.ts', ['--agent', 'canopy']);
  browserRun('reference', 'src/run.ts', ['--agent', 'reference', '--core']);
  // A newcomer's first run: a fresh clone of HEAD, the README's first command (the demo on its
  // embedded database), and the Console's core journeys as the admin and as Support against it.
  browserRun('first-run', 'src/first-run.ts', []);
}
rmSync(outDir, { recursive: true, force: true });

if (status !== 0 && failed === 0) failed = 1;
if (failures.length > 0) {
  console.log(`\nWhat failed (${failures.length}):`);
  for (const failure of failures) {
    console.log(`  ✕ ${failure.where}`);
    for (const line of failure.lines) console.log(`      ${line.slice(0, 300)}`);
  }
  console.log('');
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status);
