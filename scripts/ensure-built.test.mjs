// Unit tests of ensure-built.mjs on small fixture workspaces: `node --test scripts/` (counted by
// `pnpm test`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { staleBuilds } from './ensure-built.mjs';

const roots = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A workspace with these files (path → [content, seconds since the epoch]). */
function workspace(files) {
  const root = mkdtempSync(join(tmpdir(), 'ensure-built-'));
  roots.push(root);
  for (const [path, [content, time]] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    utimesSync(file, time, time);
  }
  return root;
}

const manifest = (extra = {}) =>
  JSON.stringify({
    name: '@x/lib',
    main: './dist/index.cjs',
    scripts: { build: 'tsup' },
    ...extra,
  });

describe('staleBuilds', () => {
  it('finds nothing to build when every output is newer than its sources', () => {
    const root = workspace({
      'packages/lib/package.json': [manifest(), 100],
      'packages/lib/src/index.ts': ['export {}', 100],
      'packages/lib/dist/index.cjs': ['', 200],
    });
    assert.deepEqual(staleBuilds(root), []);
  });

  it('builds a package never built (a fresh clone), and one whose binary is missing', () => {
    const root = workspace({
      'packages/lib/package.json': [manifest(), 100],
      'packages/lib/src/index.ts': ['export {}', 100],
      'packages/cli/package.json': [
        JSON.stringify({
          name: '@x/cli',
          main: './dist/index.cjs',
          bin: { x: './dist/cli.js' },
          scripts: { build: 'tsup' },
        }),
        100,
      ],
      'packages/cli/dist/index.cjs': ['', 200],
    });
    assert.deepEqual(staleBuilds(root), [
      { name: '@x/cli', reason: 'not built' },
      { name: '@x/lib', reason: 'not built' },
    ]);
  });

  it('rebuilds after a source or a shared setting changed, but not after a test changed', () => {
    const root = workspace({
      'tsconfig.base.json': ['{}', 100],
      'packages/lib/package.json': [manifest(), 100],
      'packages/lib/src/index.ts': ['export {}', 100],
      'packages/lib/src/index.test.ts': ['', 300],
      'packages/lib/dist/index.cjs': ['', 200],
    });
    assert.deepEqual(staleBuilds(root), []);
    utimesSync(join(root, 'packages/lib/src/index.ts'), 300, 300);
    assert.deepEqual(staleBuilds(root), [{ name: '@x/lib', reason: 'older than its sources' }]);
    utimesSync(join(root, 'packages/lib/src/index.ts'), 100, 100);
    utimesSync(join(root, 'tsconfig.base.json'), 300, 300);
    assert.deepEqual(staleBuilds(root), [{ name: '@x/lib', reason: 'older than its sources' }]);
  });

  it("checks a Vite app's page too, and skips packages without a build", () => {
    const root = workspace({
      'packages/app/package.json': [manifest({ name: '@x/app' }), 100],
      'packages/app/vite.config.ts': ['', 100],
      'packages/app/src/main.tsx': ['', 100],
      'packages/app/dist/index.cjs': ['', 200],
      'packages/types/package.json': [JSON.stringify({ name: '@x/types' }), 100],
    });
    assert.deepEqual(staleBuilds(root), [{ name: '@x/app', reason: 'not built' }]);
  });
});
