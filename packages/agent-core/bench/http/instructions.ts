// Instructions per request, counted by valgrind's callgrind: instructions executed (user space,
// every thread of the server: JavaScript, V8's compilers and garbage collector, node, libuv), not
// time, so the figure does not move with the machine's load as throughput and CPU time do. Starts
// a benchmark server bundled as bench.ts starts it — the agent (agent-server.ts, plain) or the
// raw pg server (`raw`) — under callgrind, and for each case sends INSTRUCTIONS_WARMUP requests
// (JIT warm-up, caches filled), zeroes callgrind's counters, sends INSTRUCTIONS_REQUESTS requests
// over INSTRUCTIONS_CONNECTIONS keep-alive connections, and dumps the counters
// (instruction-marks.ts): start-up and warm-up are left out of the count. Prints the instructions
// per request of each case, with and without V8's optimizing compiler (see compilerInstructions).
// The database must already be seeded (run bench once).
// Run: tsx bench/http/instructions.ts [agent|raw] [list,get,count]
// Settings: PG_URL, INSTRUCTIONS_WARMUP (default 300), INSTRUCTIONS_REQUESTS (default 600),
// INSTRUCTIONS_CONNECTIONS (default 1), INSTRUCTIONS_KEEP (a folder where each case's callgrind
// dump is kept, `<server>-<case>.callgrind.out`: `callgrind_annotate --inclusive=no` lists the
// instructions of V8's and node's own functions, JSON.stringify's or the collector's, say;
// compiled JavaScript shows as addresses), BENCH_AGENT_NODE_FLAGS (node flags of the server):
// `--single-threaded` runs V8's collector and compilers on the main thread, which makes counts
// repeatable (with background threads, runs of the same code differ by 15% and more).
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createServerSandbox } from '@canopy/testing';

import { type BenchCase, caseUrls } from './bench-common';
import { buildServer, workspaceNodePath } from './build-server';
import { ask } from './alloc-profile';
import { DUMP_MARK, ZERO_MARK } from './instruction-marks';

const SERVER = (process.argv[2] ?? 'agent') as 'agent' | 'raw';
const CASES = (process.argv[3] ?? 'list,get,count').split(',') as BenchCase[];
const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 300);
const REQUESTS = Number(process.env.INSTRUCTIONS_REQUESTS ?? 600);
const CONNECTIONS = Number(process.env.INSTRUCTIONS_CONNECTIONS ?? 1);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEEP = process.env.INSTRUCTIONS_KEEP;

/** Sends `count` GET requests to `url`, `connections` at a time; rejects on a non-2xx answer. */
async function send(url: string, count: number, headers: Record<string, string>): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      request(url, { agent, headers }, (response) => {
        response.resume();
        response.once('end', () =>
          (response.statusCode ?? 0) < 300
            ? resolve()
            : reject(new Error(`${url}: ${response.statusCode}`)),
        );
      })
        .once('error', reject)
        .end();
    });
  const loop = async () => {
    while (sent < count) {
      sent += 1;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  } finally {
    agent.destroy();
  }
}

/** The instructions (`Ir`) a callgrind dump file totals. */
function totalInstructions(file: string): number {
  const text = readFileSync(file, 'utf8');
  const total = /^(?:summary|totals):\s+(\d+)/m.exec(text);
  if (!total) throw new Error(`no instruction total in ${file}`);
  return Number(total[1]);
}

/**
 * The instructions of a dump spent by V8's optimizing compiler: the inclusive cost of
 * `Runtime_CompileOptimized` (compilations run on the main thread) plus every other thread's
 * (the compiler's jobs left on a worker thread), read with `callgrind_annotate`. Functions still
 * reach the optimizing tier after a thousand requests (those called by time rather than per
 * request: timers, the activity-log batches), so this part of a count moves with how fast
 * callgrind ran, i.e. with the machine's load; the count without it does not.
 */
function compilerInstructions(file: string): number {
  const annotated = execFileSync(
    'callgrind_annotate',
    ['--inclusive=yes', '--threshold=100', '--auto=no', file],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const inclusive = (name: string): number => {
    for (const row of annotated.split('\n')) {
      const count = /^\s*([\d,]+) \(/.exec(row);
      if (count && row.includes(name)) return Number((count[1] as string).replace(/,/g, ''));
    }
    return 0;
  };
  return inclusive('Runtime_CompileOptimized(') + inclusive('pthread_create.c:start_thread');
}

async function main(): Promise<void> {
  const outdir = mkdtempSync(join(tmpdir(), 'canopy-instructions-'));
  const sandbox = SERVER === 'agent' ? await createServerSandbox(0) : null;
  let child: ChildProcess | undefined;
  try {
    const bundle = await buildServer(SERVER === 'agent' ? 'agent-server.ts' : 'raw-server.ts');
    child = fork(bundle, [], {
      execPath: 'valgrind',
      execArgv: [
        '--tool=callgrind',
        `--callgrind-out-file=${join(outdir, 'callgrind.out')}`,
        `--zero-before=${ZERO_MARK}`,
        `--dump-before=${DUMP_MARK}`,
        '--dump-instr=no',
        '--compress-strings=no',
        process.execPath,
        ...(process.env.BENCH_AGENT_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      ],
      env: {
        ...process.env,
        PG_URL,
        NODE_PATH: workspaceNodePath(),
        // Off in the measured process: its timer's cost would grow with callgrind's slowness.
        BENCH_MEMORY_SAMPLER: 'off',
        BENCH_DB_TIMEOUT_MS: '120000',
        ...(sandbox ? { SANDBOX_URL: sandbox.url, SANDBOX_ENV_SECRET: 'be'.repeat(32) } : {}),
      },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const started = await new Promise<{ port: number; token?: string }>((resolve, reject) => {
      (child as ChildProcess).once('message', resolve as (message: unknown) => void);
      (child as ChildProcess).once('exit', (code) =>
        reject(new Error(`server exited with code ${code}:\n${stderr.slice(-2000)}`)),
      );
    });
    const base = `http://127.0.0.1:${started.port}`;
    const urls: Record<BenchCase, string> =
      SERVER === 'agent'
        ? caseUrls(`${base}/forest/orders`)
        : { list: `${base}/list`, get: `${base}/get?id=4242`, count: `${base}/count` };
    const headers: Record<string, string> = started.token
      ? { Authorization: `Bearer ${started.token}` }
      : {};
    const rows: Record<string, string | number>[] = [];
    for (const name of CASES) {
      await send(urls[name], WARMUP, headers);
      await ask(child, 'instructions-zero');
      await send(urls[name], REQUESTS, headers);
      const before = new Set(readdirSync(outdir));
      await ask(child, 'instructions-dump');
      const dumped = readdirSync(outdir).filter((file) => !before.has(file));
      if (dumped.length !== 1) throw new Error(`expected one new dump, found ${dumped.join(', ')}`);
      const dump = join(outdir, dumped[0] as string);
      if (KEEP) copyFileSync(dump, join(KEEP, `${SERVER}-${name}.callgrind.out`));
      const instructions = totalInstructions(dump);
      const compiler = compilerInstructions(dump);
      rows.push({
        server: SERVER,
        case: name,
        connections: CONNECTIONS,
        requests: REQUESTS,
        'instructions per request': Math.round(instructions / REQUESTS),
        'without the optimizing compiler': Math.round((instructions - compiler) / REQUESTS),
      });
    }
    console.table(rows);
  } finally {
    if (child && child.exitCode === null) {
      await new Promise((resolve) => {
        (child as ChildProcess).once('exit', resolve);
        (child as ChildProcess).kill('SIGTERM');
      });
    }
    await sandbox?.close();
    rmSync(outdir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
