#!/usr/bin/env node
// Packs every publishable package, installs the tarballs into a temporary project outside the
// workspace (what a user's `npm install` gets), and loads each with both `require` and `import`,
// checking that the exports its types declare exist at run time in both formats, and that each
// binary answers `--help` and `--version`. Then the agent-core README examples
// (packages/agent-core/examples) are compiled with tsc in that project and run against
// PostgreSQL (`PG_URL`, default postgres://postgres@127.0.0.1:5432/postgres), and so are the
// README's data layer example and its typed customizations, type-checked against the typings
// the packed agent-core generates for them.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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

// What a user of the README examples installs next to the packages (same majors as the workspace).
const EXAMPLE_DEPENDENCIES = [
  'typescript@5.9.3',
  '@types/node@^20.19.43',
  'express@^5.3.0',
  '@types/express@^5.0.6',
  'pg@^8.23.1',
  '@types/pg@^8.23.1',
];

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
  // Installing every tarball at once lets their @canopy/* dependencies resolve to each other;
  // what the README examples need besides comes in the same install (one resolution).
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, ...EXAMPLE_DEPENDENCIES],
    project,
  );

  // Every entry of each package's exports map: the main one and subpaths such as `/internals`.
  const entries = packages.flatMap(({ dir, manifest }) =>
    Object.entries(manifest.exports ?? { '.': {} })
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => ({
        dir,
        manifest,
        name: manifest.name + subpath.slice(1),
        main: subpath === '.',
        dts: join(dir, target?.require?.types ?? './dist/index.d.ts'),
      })),
  );
  for (const { manifest, name: entryName, main, dts } of entries) {
    const declared = declaredExports(dts);
    const script = `
      const name = ${JSON.stringify(entryName)};
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
    for (const bin of main ? Object.keys(manifest.bin ?? {}) : []) {
      try {
        run(join(project, 'node_modules', '.bin', bin), ['--help'], project);
        console.log(`ok ${manifest.name} bin ${bin} --help`);
      } catch {
        console.error(`${manifest.name}: bin ${bin} --help failed`);
        problems += 1;
      }
      try {
        const answer = run(join(project, 'node_modules', '.bin', bin), ['--version'], project);
        if (answer.trim() !== manifest.version) throw new Error(answer);
        console.log(`ok ${manifest.name} bin ${bin} --version (${manifest.version})`);
      } catch {
        console.error(`${manifest.name}: bin ${bin} --version did not answer ${manifest.version}`);
        problems += 1;
      }
    }
  }

  problems += verifyReadmeExamples();
  problems += verifyTypedProject();
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems > 0) {
  console.error(`verify:pack: ${problems} problem(s)`);
  process.exit(1);
}

/**
 * Compiles the agent-core README examples with tsc against the installed packages (their
 * published types) and runs them; returns the number of problems.
 */
function verifyReadmeExamples() {
  cpSync(join(root, 'packages', 'agent-core', 'examples'), join(project, 'examples'), {
    recursive: true,
  });
  writeFileSync(join(project, 'tsconfig.json'), projectTsconfig(['examples']));
  try {
    run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project);
    console.log('ok README examples compile against the packed packages');
  } catch (error) {
    console.error(`README examples do not compile:\n${error.stdout ?? error.message}`);
    return 1;
  }
  const postgresUrl = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    process.stdout.write(run('node', [join('dist', 'run-examples.js'), postgresUrl], project));
    return 0;
  } catch {
    console.error('README examples failed to run (above)');
    return 1;
  }
}

/**
 * The README's other two examples, in their own folder of the project: the data layer example
 * (`test/readme-example.ts`, run with a caller) and the typed customizations
 * (`test/typed-project/customizations.ts`). The typings are generated by the packed agent-core's
 * `updateTypesOnFileSystem` from those customizations (first compiled against the committed
 * typings), must be the committed ones, and the customizations must compile against them.
 * Returns the number of problems.
 */
function verifyTypedProject() {
  const source = join(root, 'packages', 'agent-core', 'test');
  const typed = join(project, 'typed');
  cpSync(join(source, 'typed-project'), typed, { recursive: true });
  cpSync(join(source, 'readme-example.ts'), join(typed, 'readme-example.ts'));
  writeFileSync(
    join(typed, 'run.ts'),
    `import { createAgent } from '@canopy/agent-core';
import { customize, shopDataSource } from './customizations';
import { main } from './readme-example';
import type { Schema } from './typings';

async function run(target: string) {
  const { bigOrders, result } = await main({
    id: 1, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace',
    team: 'Operations', role: 'Admin', tags: {}, timezone: 'Europe/Paris',
  });
  if (JSON.stringify(bigOrders) !== '[{"id":1,"amount":250,"customerName":"Ada Lovelace"}]' ||
      result.type !== 'Success') {
    throw new Error('The data layer example answered ' + JSON.stringify({ bigOrders, result }));
  }
  const agent = customize(
    createAgent<Schema>({
      authSecret: 'typed-project-secret',
      envSecret: 'ab'.repeat(32),
      schemaPath: target + '.schema.json',
      loggerLevel: 'Error',
    }).addDataSource(shopDataSource()),
  );
  await agent.updateTypesOnFileSystem(target, 2);
}
run(process.argv[2] as string).catch((error) => { console.error(error); process.exit(1); });
`,
  );
  writeFileSync(join(typed, 'tsconfig.json'), projectTsconfig(['*.ts']));
  const tsc = join(project, 'node_modules', '.bin', 'tsc');
  try {
    run(tsc, ['-p', '.'], typed);
    const generated = join(typed, 'generated-typings.ts');
    run('node', [join('dist', 'run.js'), generated], typed);
    console.log('ok README data layer example runs from the packed packages');
    if (readFileSync(generated, 'utf8') !== readFileSync(join(typed, 'typings.ts'), 'utf8')) {
      console.error('the packed agent-core generates other typings than the committed ones');
      return 1;
    }
    // The customizations against the typings the packed package just wrote, nothing else.
    cpSync(generated, join(typed, 'typings.ts'));
    writeFileSync(
      join(typed, 'tsconfig.json'),
      projectTsconfig(['customizations.ts', 'typings.ts']),
    );
    run(tsc, ['-p', '.', '--noEmit'], typed);
    console.log('ok README typed customizations compile against the typings generated for them');
    return 0;
  } catch (error) {
    console.error(`README typed project failed:\n${error.stdout ?? error.message}`);
    return 1;
  }
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
  for (const match of source.matchAll(/export \{([^}]*)\}( from '(\.[^']+)')?/g)) {
    // A declaration chunk shared by several entries (tsup with more than one): the names it
    // exports as values, under their aliases there.
    const chunkValues = match[3] ? declaredExports(join(dirname(dtsFile), dtsName(match[3]))) : [];
    for (const part of match[1].split(',')) {
      const item = part.trim();
      if (!item || item.startsWith('type ')) continue;
      const [local, exported] = item.split(/\s+as\s+/);
      const isValue = match[3]
        ? chunkValues.includes(local.trim())
        : declaredValue.has(local.trim());
      if (isValue) values.add((exported ?? local).trim());
    }
  }
  for (const match of source.matchAll(
    /export declare (?:abstract )?(?:const|let|var|function|class|enum) (\w+)/g,
  )) {
    values.add(match[1]);
  }
  return [...values].sort();
}

/** The declaration file of a relative module path as a .d.ts names it (`./x.js` → `x.d.ts`). */
function dtsName(path) {
  return path.replace(/\.mjs$/, '.d.mts').replace(/\.js$/, '.d.ts');
}

/**
 * The tsconfig of a fresh project that installs the packed packages: strict, Node 16 modules, the
 * libraries' own .d.ts files checked too (no skipLibCheck), so a published type that does not
 * compile fails here.
 */
function projectTsconfig(include) {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'node16',
      moduleResolution: 'node16',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: false,
      types: ['node'],
      outDir: 'dist',
    },
    include,
  });
}
