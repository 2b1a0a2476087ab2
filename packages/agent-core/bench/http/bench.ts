// HTTP benchmark of the agent's REST interface on PostgreSQL (100,000 orders by default) against
// a minimal HTTP server running the same queries as raw SQL through pg, measured in one run with
// autocannon over loopback: list (15 records, a filter, a sort, a many-to-one field), get and
// count, at 1 and 10 connections. Two agents run side by side, plain and with the MCP server
// mounted; each case runs raw, plain, MCP, MCP, plain, raw (BENCH_SECONDS each), so that a drift
// of the machine weighs on both alike, and reports the means: requests/s, the agent/raw ratio, p50
// and p99 latency, the CPU time each server spends per request (read from /proc, which stays
// meaningful when other work shares the machine) and each server's RSS max during the case. It
// first measures the REST layer alone (hot-path-server.ts). Each server runs in its own process.
// Run: pnpm --filter @canopy/agent-core bench
// Settings: PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_ORDERS, BENCH_SECONDS
// (default 5), BENCH_CPU_PROFILE=1 (the servers write .cpuprofile files in the working
// directory), BENCH_PART (`rest`: the REST layer alone, `pg`: the PostgreSQL comparison only;
// both by default), BENCH_VARIANTS (`plain,mcp` by default), BENCH_AGENT_NODE_FLAGS (node flags
// of the agent process only, e.g. `--max-semi-space-size=2`, printed with the results).
// BENCH_PART=memory (also part of the default run) drives the raw server, then the plain agent,
// with lists at 10 connections for BENCH_MEMORY_SECONDS (default 60) each and prints their RSS
// every 10 s: a server's memory under sustained load, which the cases' 5 s runs under-read.
// The servers run as plain JavaScript bundled by build-server.ts, never under a TypeScript loader.
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';

import { createServerSandbox } from '@canopy/testing';
import autocannon from 'autocannon';

import { caseUrls, cpuMicros, rssMb } from './bench-common';
import { buildServer, workspaceNodePath } from './build-server';
import { seedBenchDatabase } from './seed';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PART = process.env.BENCH_PART ?? 'all';
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'plain,mcp').split(',').filter(Boolean);
const MEMORY_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const AGENT_NODE_FLAGS = (process.env.BENCH_AGENT_NODE_FLAGS ?? '').split(' ').filter(Boolean);

interface Started {
  child: ChildProcess;
  port: number;
  rawPort?: number;
  token?: string;
}

const SANDBOX_ENV_SECRET = 'be'.repeat(32);

async function start(
  file: string,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<Started> {
  const child = fork(await buildServer(file), [], {
    execArgv: [...(process.env.BENCH_CPU_PROFILE ? ['--cpu-prof'] : []), ...nodeFlags],
    env: { ...process.env, PG_URL, NODE_PATH: workspaceNodePath(), ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number; rawPort?: number; token?: string }) =>
      resolve({ child, ...message }),
    );
    child.once('exit', (code) => reject(new Error(`${file} exited with code ${code}`)));
  });
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Server CPU per request (µs): independent of what else runs on the machine. */
  cpuPerRequest: number;
}

async function measure(
  url: string,
  server: Started,
  connections: number,
  headers: Record<string, string> = {},
): Promise<Measure> {
  const before = cpuMicros(server.child.pid as number);
  const result = await autocannon({ url, connections, duration: SECONDS, headers });
  const used = cpuMicros(server.child.pid as number) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    cpuPerRequest: Math.round(used / Math.max(1, result.requests.total)),
  };
}

/** Two runs of one case as one: their mean (CPU per request over both runs' requests). */
function combine(first: Measure, second: Measure): Measure {
  const mean = (a: number, b: number) => Math.round(((a + b) / 2) * 10) / 10;
  return {
    rps: mean(first.rps, second.rps),
    p50: mean(first.p50, second.p50),
    p99: mean(first.p99, second.p99),
    errors: first.errors + second.errors,
    requests: first.requests + second.requests,
    cpuPerRequest: Math.round(
      (first.cpuPerRequest * first.requests + second.cpuPerRequest * second.requests) /
        Math.max(1, first.requests + second.requests),
    ),
  };
}

/** The REST layer alone over a stub data source, against node:http answering the same rows. */
async function hotPath(): Promise<void> {
  const server = await start('hot-path-server.ts');
  try {
    const headers = { Authorization: `Bearer ${server.token}` };
    const cases = caseUrls(`http://127.0.0.1:${server.port}/forest/orders`);
    const rows: Record<string, string | number>[] = [];
    const raw = await measure(`http://127.0.0.1:${server.rawPort}/`, server, 10);
    rows.push({
      case: 'node:http + JSON.stringify',
      'req/s': Math.round(raw.rps),
      'CPU µs per req': raw.cpuPerRequest,
    });
    for (const [name, url] of Object.entries(cases)) {
      await measure(url, server, 10, headers);
      const measured = await measure(url, server, 10, headers);
      rows.push({
        case: `REST layer ${name}`,
        'req/s': Math.round(measured.rps),
        'CPU µs per req': measured.cpuPerRequest,
        errors: measured.errors,
      });
    }
    console.log('REST layer alone (stub data source, 10 connections):');
    console.table(rows);
  } finally {
    server.child.kill('SIGTERM');
  }
}

/** The agent process's `process.memoryUsage()` at its own RSS peak (agent-server.ts samples it). */
function agentMemoryAtPeak(child: ChildProcess): Promise<NodeJS.MemoryUsage | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 2_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as { memory?: NodeJS.MemoryUsage }).memory);
    });
    child.send('memory');
  });
}

interface CaseUrls {
  name: string;
  agent: string;
  raw: string;
}

/** One agent under test: its variant's label, its process, and its RSS readings. */
interface AgentRun {
  label: string;
  server: Started;
  idleRss: number;
  peakRss: number;
  casePeakRss: number;
  cases: CaseUrls[];
  headers: Record<string, string>;
}

/**
 * Runs every case against the agents of every variant (started with their `env`) and the raw
 * server, interleaved — raw, each agent, each agent again in reverse order, raw — so that a drift
 * of the machine or the database during a case weighs on every variant alike; then prints each
 * variant's table and memory and stops the agents.
 */
async function compare(
  variants: { label: string; env: Record<string, string> }[],
  raw: Started,
): Promise<void> {
  const runs: AgentRun[] = [];
  let rawCasePeakRss = 0;
  const sampler = setInterval(() => {
    for (const run of runs) {
      const rss = rssMb(run.server.child.pid as number);
      run.peakRss = Math.max(run.peakRss, rss);
      run.casePeakRss = Math.max(run.casePeakRss, rss);
    }
    rawCasePeakRss = Math.max(rawCasePeakRss, rssMb(raw.child.pid as number));
  }, 200);
  try {
    for (const { label, env } of variants) {
      const server = await start('agent-server.ts', env, AGENT_NODE_FLAGS);
      const urls = caseUrls(`http://127.0.0.1:${server.port}/forest/orders`);
      runs.push({
        label,
        server,
        idleRss: rssMb(server.child.pid as number),
        peakRss: 0,
        casePeakRss: 0,
        cases: [
          { name: 'list', agent: urls.list, raw: `http://127.0.0.1:${raw.port}/list` },
          { name: 'get', agent: urls.get, raw: `http://127.0.0.1:${raw.port}/get?id=4242` },
          { name: 'count', agent: urls.count, raw: `http://127.0.0.1:${raw.port}/count` },
        ],
        headers: { Authorization: `Bearer ${server.token}` },
      });
    }
    for (const run of runs) {
      for (const { agent: url } of run.cases) await measure(url, run.server, 2, run.headers);
    }
    const rows = new Map<AgentRun, Record<string, string | number>[]>(runs.map((run) => [run, []]));
    for (const connections of [1, 10]) {
      for (const [index, testCase] of (runs[0] as AgentRun).cases.entries()) {
        for (const run of runs) run.casePeakRss = 0;
        rawCasePeakRss = 0;
        const rawFirst = await measure(testCase.raw, raw, connections);
        const firsts = new Map<AgentRun, Measure>();
        const seconds = new Map<AgentRun, Measure>();
        for (const [order, measures] of [
          [runs, firsts],
          [[...runs].reverse(), seconds],
        ] as const) {
          for (const run of order) {
            const url = (run.cases[index] as CaseUrls).agent;
            measures.set(run, await measure(url, run.server, connections, run.headers));
          }
        }
        const rawSecond = await measure(testCase.raw, raw, connections);
        const baseline = combine(rawFirst, rawSecond);
        for (const run of runs) {
          const measured = combine(firsts.get(run) as Measure, seconds.get(run) as Measure);
          rows.get(run)?.push({
            case: testCase.name,
            conns: connections,
            'Canopy req/s': Math.round(measured.rps),
            'raw req/s': Math.round(baseline.rps),
            ratio: (measured.rps / baseline.rps).toFixed(2),
            'Canopy p50/p99 ms': `${measured.p50}/${measured.p99}`,
            'raw p50/p99 ms': `${baseline.p50}/${baseline.p99}`,
            'CPU µs/req Canopy/raw': `${measured.cpuPerRequest}/${baseline.cpuPerRequest}`,
            'Canopy RSS max MiB': Math.round(run.casePeakRss),
            'raw RSS max MiB': Math.round(rawCasePeakRss),
            errors: measured.errors,
          });
        }
      }
    }
    for (const run of runs) {
      console.log(`Canopy (${run.label}) on PostgreSQL against raw SQL through pg:`);
      console.table(rows.get(run));
      console.log(
        `Canopy (${run.label}) RSS: ${run.idleRss.toFixed(0)} MiB after start, ${run.peakRss.toFixed(0)} MiB max under load (target < 100 MiB)`,
      );
      const memory = await agentMemoryAtPeak(run.server.child);
      if (memory) {
        const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
        console.log(
          `Canopy (${run.label}) at its RSS max (${mb(memory.rss)}): V8 heap ${mb(memory.heapTotal)} (used ${mb(memory.heapUsed)}), external ${mb(memory.external)} (array buffers ${mb(memory.arrayBuffers)}), the rest outside V8's accounting ${mb(memory.rss - memory.heapTotal - memory.external)}`,
        );
      }
    }
  } finally {
    clearInterval(sampler);
    for (const run of runs) run.server.child.kill('SIGTERM');
  }
}

/**
 * Memory under sustained load: the raw server, then the plain agent, each alone, answering lists
 * at 10 connections for MEMORY_SECONDS in runs of 10 s; prints each one's RSS after start, its
 * max in each run and overall. V8 grows a server's young generation (up to two 16 MiB
 * semi-spaces by default) as the bytes its collections keep add up, so a server's RSS climbs for
 * tens of seconds before it levels off, longer than a case of the comparison runs.
 */
async function sustainedMemory(env: Record<string, string>): Promise<void> {
  const servers = [
    { label: 'raw', file: 'raw-server.ts', env: {}, flags: [] as string[] },
    { label: 'Canopy (plain)', file: 'agent-server.ts', env, flags: AGENT_NODE_FLAGS },
  ];
  const rows: Record<string, string | number>[] = [];
  for (const { label, file, env: serverEnv, flags } of servers) {
    const server = await start(file, serverEnv, flags);
    const pid = server.child.pid as number;
    const url =
      file === 'raw-server.ts'
        ? `http://127.0.0.1:${server.port}/list`
        : caseUrls(`http://127.0.0.1:${server.port}/forest/orders`).list;
    const headers: Record<string, string> = server.token
      ? { Authorization: `Bearer ${server.token}` }
      : {};
    const row: Record<string, string | number> = {
      server: label,
      'after start': Math.round(rssMb(pid)),
    };
    let windowMax = 0;
    let max = 0;
    let requests = 0;
    const sampler = setInterval(() => {
      windowMax = Math.max(windowMax, rssMb(pid));
    }, 100);
    try {
      for (let second = 0; second < MEMORY_SECONDS; second += 10) {
        windowMax = 0;
        const result = await autocannon({ url, connections: 10, duration: 10, headers });
        requests += result.requests.total;
        row[`${second}–${second + 10} s`] = Math.round(windowMax);
        max = Math.max(max, windowMax);
      }
    } finally {
      clearInterval(sampler);
      server.child.kill('SIGTERM');
    }
    rows.push({ ...row, max: Math.round(max), 'req/s': Math.round(requests / MEMORY_SECONDS) });
  }
  console.log(`RSS (MiB) under ${MEMORY_SECONDS} s of lists at 10 connections, each server alone:`);
  console.table(rows);
}

async function main(): Promise<void> {
  if (PART === 'all' || PART === 'rest') await hotPath();
  if (PART === 'rest') return;
  await seedBenchDatabase(PG_URL, ORDERS);
  if (PART === 'memory') {
    const sandbox = await createServerSandbox(0);
    try {
      await sustainedMemory({ SANDBOX_URL: sandbox.url, SANDBOX_ENV_SECRET });
    } finally {
      await sandbox.close();
    }
    return;
  }
  console.log(
    `${ORDERS} orders, ${SECONDS} s per run, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} at start`,
  );
  if (AGENT_NODE_FLAGS.length > 0) console.log(`agent node flags: ${AGENT_NODE_FLAGS.join(' ')}`);
  const raw = await start('raw-server.ts');
  const sandbox = await createServerSandbox(0);
  const env = { SANDBOX_URL: sandbox.url, SANDBOX_ENV_SECRET };
  try {
    await compare(
      VARIANTS.map((variant) =>
        variant === 'mcp'
          ? { label: 'MCP mounted', env: { ...env, BENCH_MCP: '1' } }
          : { label: 'plain', env },
      ),
      raw,
    );
    if (PART === 'all') await sustainedMemory(env);
    console.log(
      `load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} at the end`,
    );
  } finally {
    raw.child.kill('SIGTERM');
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
