// Profiles the agent on PostgreSQL on one case (agent-server.ts against the platform sandbox):
// drives it with autocannon at BENCH_CONNECTIONS (default 10) for BENCH_SECONDS after a warm-up,
// prints its CPU µs per request, and with PROFILE=cpu starts it with --cpu-prof (the profile lands
// in the working directory, written when the agent exits); PROFILE=gc prints the agent's
// collections (--trace-gc), BENCH_AGENT_NODE_FLAGS adds node flags (e.g. --trace-gc-nvp, which
// shows how much each young-generation collection promotes), PROFILE=alloc or promoted prints a
// sampling heap profile per request (see alloc-profile.ts). Run: tsx bench/http/pg-profile.ts
// <list|get|count> [raw]; with `raw`, the same for the raw pg server (raw-server.ts), for scale.
// The database must already be seeded (run bench once).

import { fork } from 'node:child_process';

import { createServerSandbox } from '@canopy/testing';
import autocannon from 'autocannon';

import { allocationMode, ask, printAllocations } from './alloc-profile';
import { type BenchCase, caseUrls, cpuMicros } from './bench-common';
import { buildServer, forkAgentServer, workspaceNodePath } from './build-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CASE = (process.argv[2] ?? 'get') as BenchCase;
const RAW = process.argv[3] === 'raw';

async function main(): Promise<void> {
  const sandbox = await createServerSandbox(0);
  const nodeFlags = [
    ...(process.env.PROFILE === 'cpu' ? ['--cpu-prof'] : []),
    ...(process.env.PROFILE === 'gc' ? ['--trace-gc'] : []),
    ...(process.env.BENCH_AGENT_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const env: Record<string, string> = allocationMode()
    ? { CANOPY_ALLOC_PROFILE: allocationMode() as string }
    : {};
  const child = RAW
    ? fork(await buildServer('raw-server.ts'), [], {
        execArgv: nodeFlags,
        env: {
          ...process.env,
          PG_URL: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
          NODE_PATH: workspaceNodePath(),
          ...env,
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
    : await forkAgentServer(sandbox.url, nodeFlags, env);
  const { port, token } = await new Promise<{ port: number; token?: string }>((resolve) =>
    child.once('message', resolve as (message: unknown) => void),
  );
  const url = RAW
    ? `http://127.0.0.1:${port}/${CASE === 'get' ? 'get?id=4242' : CASE}`
    : caseUrls(`http://127.0.0.1:${port}/forest/orders`)[CASE];
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  try {
    await autocannon({ url, connections: 2, duration: 2, headers });
    if (allocationMode()) await ask(child, 'alloc-start');
    const before = cpuMicros(child.pid as number);
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
    const used = cpuMicros(child.pid as number) - before;
    console.log(
      `${RAW ? 'raw ' : ''}${CASE} at ${CONNECTIONS} connections: ${Math.round(result.requests.average)} req/s, ` +
        `${Math.round(used / Math.max(1, result.requests.total))} CPU µs per request, ` +
        `${result.errors + result.non2xx} errors`,
    );
    if (allocationMode()) printAllocations(await ask(child, 'alloc-stop'), result.requests.total);
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
