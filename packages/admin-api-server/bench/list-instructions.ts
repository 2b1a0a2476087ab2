/**
 * Instructions per request of the public API's list, counted by valgrind's callgrind in the
 * `serve` process: instructions executed (JavaScript, V8, node, libuv), not time, so the figure
 * does not move with the machine's load as req/s and CPU time do. For comparing two versions of
 * the server on the same request, or a change against its base, on a shared machine.
 *
 *   BENCH_DATABASE_URL=postgres://…?schema=canopy_admin_api_bench \
 *     pnpm exec tsx bench/list-instructions.ts [first,deep]
 *
 * Runs `canopy-admin-api serve`, bundled from the sources of BENCH_TREE (a checkout's
 * packages/admin-api-server; default this one, so another commit's worktree can be measured with
 * this script), under callgrind with `node --single-threaded` (V8's collector and compilers on
 * the main thread: repeatable counts). For each page of list-activity-logs.bench.ts (the first
 * page, a deep cursor page; the same query and token) it sends INSTRUCTIONS_WARMUP requests (JIT,
 * pools, caches), zeroes callgrind's counters, sends INSTRUCTIONS_REQUESTS requests one at a time
 * on one keep-alive connection (INSTRUCTIONS_CONNECTIONS at a time if set), dumps the counters,
 * and prints instructions per request. The zero and dump marks are two native calls
 * (`os.getPriority`, `os.hostname`) that a preloaded script makes on SIGUSR2 and SIGWINCH, so the
 * server's code is measured unchanged.
 *
 * With INSTRUCTIONS_KEEP=<dir>, the dumps are kept there for `callgrind_annotate` (node's C++
 * and V8's builtins by name; JIT-compiled JavaScript is not named). The database must be seeded
 * by list-activity-logs.bench.ts (same BENCH_DATABASE_URL and BENCH_ROWS). Not part of the test
 * suite.
 *
 * Without callgrind: INSTRUCTIONS_PROFILE=<dir> runs the server as it is and, between the marks,
 * takes V8's CPU profile (sampling every INSTRUCTIONS_PROFILE_INTERVAL_US, default 100) and its
 * allocation-sampling profile (objects collected since included) into that directory, and prints
 * the process's CPU time per request (INSTRUCTIONS_PROFILE_SAMPLING=0: the CPU time only).
 * INSTRUCTIONS_STRACE=<file> counts the measured requests' system calls (`strace -c`, into
 * <file>.<page>); INSTRUCTIONS_NODE_FLAGS adds node options to the server (`--trace-deopt`,
 * `-r <preload>`), and INSTRUCTIONS_STDERR=1 echoes its standard error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildCliBundle } from '../test/helpers/cli-bundle';
import { checkoutCode, listCase } from './list-case';
import { startChild } from './serve-child';

const TREE = resolve(process.env.BENCH_TREE ?? join(__dirname, '..'));
const URL_ =
  process.env.BENCH_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test?schema=canopy_admin_api_bench';
const CASES = (process.argv[2] ?? 'first,deep').split(',');
const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 300);
const REQUESTS = Number(process.env.INSTRUCTIONS_REQUESTS ?? 300);
const CONNECTIONS = Number(process.env.INSTRUCTIONS_CONNECTIONS ?? 1);
const KEEP = process.env.INSTRUCTIONS_KEEP;
const PROFILE = process.env.INSTRUCTIONS_PROFILE;

/** The preloaded marks: a native call callgrind zeroes before, one it dumps before. */
const MARKS = `
const os = require('node:os');
process.on('SIGUSR2', () => { os.getPriority(); process.stderr.write('instructions-zeroed\\n'); });
process.on('SIGWINCH', () => { os.hostname(); process.stderr.write('instructions-dumped\\n'); });
`;

/**
 * With PROFILE set: the marks start and stop V8's sampling profiler in the process (one profile
 * per measured page, written to the directory) and report the process's CPU time between them.
 */
const PROFILE_MARKS = `
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const sampling = process.env.PROFILE_SAMPLING !== '0';
const session = new Session();
session.connect();
let started;
let count = 0;
const post = (method, params) =>
  new Promise((done, fail) => session.post(method, params, (error, result) => (error ? fail(error) : done(result))));
process.on('SIGUSR2', async () => {
  if (sampling) {
    await post('HeapProfiler.enable');
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: ${Number(process.env.INSTRUCTIONS_PROFILE_INTERVAL_US ?? 100)} });
    await post('Profiler.start');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  started = process.cpuUsage();
  process.stderr.write('instructions-zeroed\\n');
});
process.on('SIGWINCH', async () => {
  const used = process.cpuUsage(started);
  count += 1;
  if (sampling) {
    const { profile } = await post('Profiler.stop');
    fs.writeFileSync(process.env.PROFILE_DIR + '/' + count + '.cpuprofile', JSON.stringify(profile));
    const heap = await post('HeapProfiler.stopSampling');
    fs.writeFileSync(process.env.PROFILE_DIR + '/' + count + '.heapprofile', JSON.stringify(heap.profile));
  }
  process.stderr.write('cpu ' + (used.user + used.system) + ' ' + used.system + '\\n');
  process.stderr.write('instructions-dumped\\n');
});
`;

/**
 * Sends `count` GET requests, INSTRUCTIONS_CONNECTIONS at a time (default 1: one after another,
 * fetch keeping its connection alive).
 */
async function send(url: string, count: number, headers: Record<string, string>): Promise<void> {
  let sent = 0;
  const loop = async () => {
    while (sent < count) {
      sent += 1;
      const answer = await fetch(url, { headers });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
}

/** The instructions (`Ir`) a callgrind dump file totals. */
function totalInstructions(file: string): number {
  const total = /^(?:summary|totals):\s+(\d+)/m.exec(fs.readFileSync(file, 'utf8'));
  if (!total) throw new Error(`no instruction total in ${file}`);
  return Number(total[1]);
}

/**
 * Resolves when the child writes `wanted` as a line on stderr (read from start to end); `cpu()`
 * is the last CPU time in µs the profile marks reported.
 */
function stderrWaiter(child: ChildProcess): {
  line(wanted: string): Promise<void>;
  cpu(): number;
  system(): number;
} {
  const waiting = new Map<string, () => void>();
  let cpu = NaN;
  let system = NaN;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (process.env.INSTRUCTIONS_STDERR) process.stderr.write(`${line}\n`);
    if (line.startsWith('cpu ')) {
      [cpu, system] = line.slice(4).split(' ').map(Number) as [number, number];
    }
    waiting.get(line)?.();
    waiting.delete(line);
  });
  return {
    line: (wanted) => new Promise((done) => waiting.set(wanted, done)),
    cpu: () => cpu,
    system: () => system,
  };
}

async function main(): Promise<void> {
  const checkout = checkoutCode(TREE);
  const work = fs.mkdtempSync(join(tmpdir(), 'canopy-list-instructions-'));
  const dumps = KEEP ?? join(work, 'dumps');
  fs.mkdirSync(dumps, { recursive: true });
  const server = await checkout.benchServer(URL_, 2);
  let stop = async () => {};
  try {
    const request = await listCase(server.knex, checkout.keys, checkout.code, 'instructions');
    const { token, path } = request;
    const cursor = request.cursor;
    const paths: Record<string, string> = { first: path, deep: `${path}&cursor=${cursor}` };

    const outDir = buildCliBundle(TREE, join(work, 'bundle'));
    const preload = join(work, 'marks.cjs');
    fs.writeFileSync(preload, PROFILE ? PROFILE_MARKS : MARKS);
    const serve = [
      ...(process.env.INSTRUCTIONS_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      '-r',
      preload,
      join(outDir, 'cli.js'),
      'serve',
    ];
    const serving = startChild(
      PROFILE ? process.execPath : 'valgrind',
      PROFILE
        ? serve
        : [
            '--tool=callgrind',
            `--callgrind-out-file=${join(dumps, 'callgrind.out')}`,
            '--zero-before=uv_os_getpriority',
            '--dump-before=uv_os_gethostname',
            '--dump-instr=no',
            '--compress-strings=no',
            process.execPath,
            '--single-threaded',
            ...serve,
          ],
      {
        PROFILE_DIR: PROFILE,
        PROFILE_SAMPLING: process.env.INSTRUCTIONS_PROFILE_SAMPLING,
        PATH: process.env.PATH,
        // The bundle lives outside the tree: its dependencies resolve from the tree's.
        NODE_PATH: join(TREE, 'node_modules'),
        DATABASE_URL: URL_,
        DATABASE_POOL_SIZE: '2',
        PORT: '0',
        HOST: '127.0.0.1',
        CANOPY_TOKEN_SIGNING_KEYS: `${checkout.keys[0]!.id}:${checkout.keys[0]!.secret}`,
        RATE_LIMIT_POINTS: '1000000000',
        RATE_LIMIT_DURATION_SECONDS: '3600',
        NODE_ENV: 'production',
      },
    );
    stop = serving.stop;
    const child = serving.child;
    const stderr = stderrWaiter(child);
    const port = await serving.port;
    const headers = { Authorization: `Bearer ${token}` };
    const rows: Record<string, string | number>[] = [];
    for (const name of CASES) {
      const url = `http://127.0.0.1:${port}${paths[name]}`;
      await send(url, WARMUP, headers);
      const zeroed = stderr.line('instructions-zeroed');
      child.kill('SIGUSR2');
      await zeroed;
      const strace = process.env.INSTRUCTIONS_STRACE
        ? spawn(
            'strace',
            [
              '-c',
              '-f',
              '-o',
              `${process.env.INSTRUCTIONS_STRACE}.${name}`,
              '-p',
              String(child.pid),
            ],
            { stdio: 'ignore' },
          )
        : undefined;
      if (strace) await new Promise((done) => setTimeout(done, 1000));
      await send(url, REQUESTS, headers);
      if (strace) {
        const exited = new Promise((done) => strace.once('exit', done));
        strace.kill('SIGINT');
        await exited;
      }
      const before = new Set(fs.readdirSync(dumps));
      const dumped = stderr.line('instructions-dumped');
      child.kill('SIGWINCH');
      await dumped;
      if (PROFILE) {
        rows.push({
          tree: TREE,
          page: name,
          requests: REQUESTS,
          'CPU µs per request': Math.round(stderr.cpu() / REQUESTS),
          'of which system': Math.round(stderr.system() / REQUESTS),
        });
        continue;
      }
      const files = fs.readdirSync(dumps).filter((file) => !before.has(file));
      if (files.length !== 1) throw new Error(`expected one new dump, found ${files.join(', ')}`);
      rows.push({
        tree: TREE,
        page: name,
        requests: REQUESTS,
        'instructions per request': Math.round(
          totalInstructions(join(dumps, files[0]!)) / REQUESTS,
        ),
        dump: KEEP ? files[0]! : '',
      });
    }
    console.table(rows);
  } finally {
    await stop();
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
