#!/usr/bin/env node
// Packs every publishable package, installs the tarballs into a temporary project outside the
// workspace (what a user's `npm install` gets), and loads each with both `require` and `import`,
// checking that the exports its types declare exist at run time in both formats.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'canopy-pack-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => join(root, 'packages', dir))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

let problems = 0;
try {
  for (const { dir, manifest } of packages) {
    if (!existsSync(join(dir, 'dist')))
      throw new Error(`${manifest.name} is not built: run pnpm build`);
    run('pnpm', ['pack', '--pack-destination', tarballs], dir);
  }
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  run('mkdir', ['-p', project], work);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'canopy-pack-check', private: true, version: '0.0.0' }),
  );
  // Installing every tarball at once lets their @canopy/* dependencies resolve to each other.
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], project);

  for (const { dir, manifest } of packages) {
    const declared = declaredExports(join(dir, 'dist', 'index.d.ts'));
    const script = `
      const name = ${JSON.stringify(manifest.name)};
      const declared = ${JSON.stringify(declared)};
      const cjs = require(name);
      import(name).then((esm) => {
        const missing = [];
        for (const key of declared) {
          if (!(key in cjs)) missing.push('require: ' + key);
          if (!(key in esm)) missing.push('import: ' + key);
        }
        if (missing.length) { console.error(name + ' is missing ' + missing.join(', ')); process.exit(1); }
        console.log('ok ' + name + ' (' + declared.length + ' runtime exports, require + import)');
      }).catch((error) => { console.error(name + ': import failed: ' + error.message); process.exit(1); });
    `;
    try {
      process.stdout.write(run('node', ['-e', script], project));
    } catch {
      problems += 1;
    }
    for (const bin of Object.keys(manifest.bin ?? {})) {
      try {
        run(join(project, 'node_modules', '.bin', bin), ['--help'], project);
        console.log(`ok ${manifest.name} bin ${bin} --help`);
      } catch {
        console.error(`${manifest.name}: bin ${bin} --help failed`);
        problems += 1;
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems > 0) {
  console.error(`verify:pack: ${problems} problem(s)`);
  process.exit(1);
}

/** Value exports named in a bundled declaration file (types and interfaces excluded). */
function declaredExports(dtsFile) {
  const source = readFileSync(dtsFile, 'utf8');
  const values = new Set();
  const declaredValue = new Set();
  for (const match of source.matchAll(
    /declare (?:abstract )?(?:const|let|var|function|class|enum) (\w+)/g,
  )) {
    declaredValue.add(match[1]);
  }
  for (const match of source.matchAll(/export \{([^}]*)\}/g)) {
    for (const part of match[1].split(',')) {
      const item = part.trim();
      if (!item || item.startsWith('type ')) continue;
      const [local, exported] = item.split(/\s+as\s+/);
      if (declaredValue.has(local.trim())) values.add((exported ?? local).trim());
    }
  }
  for (const match of source.matchAll(
    /export declare (?:abstract )?(?:const|let|var|function|class|enum) (\w+)/g,
  )) {
    values.add(match[1]);
  }
  return [...values].sort();
}
