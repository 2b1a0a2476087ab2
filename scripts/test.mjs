#!/usr/bin/env node
// Runs every workspace test suite in one jest run and ends with the one line CI reads:
// "N passed, N failed". Extra arguments go to jest (e.g. `pnpm test --selectProjects agent-core`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = mkdtempSync(join(tmpdir(), 'canopy-jest-'));
const outFile = join(outDir, 'results.json');

// PGlite (embedded PostgreSQL) loads its WASM through a dynamic import, which jest's VM only
// allows with this flag.
const nodeOptions = [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings']
  .filter(Boolean)
  .join(' ');

const jestBin = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(
  process.execPath,
  [jestBin, '--json', `--outputFile=${outFile}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions } },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(outFile)) {
  const summary = JSON.parse(readFileSync(outFile, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests;
  skipped = summary.numPendingTests + summary.numTodoTests;
  // A suite that fails to load has no failed test but must still fail the run.
  failed += summary.numRuntimeErrorTestSuites;
}
rmSync(outDir, { recursive: true, force: true });

const status = result.status ?? 1;
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status);
