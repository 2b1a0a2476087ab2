// Profiles the REST layer alone (hot-path-server.ts) on one case: starts the server with
// --cpu-prof (or --heap-prof with PROFILE=heap), drives it with autocannon for BENCH_SECONDS at 10
// connections and prints the server's CPU µs per request. The profile lands in the working
// directory. Run: tsx bench/http/rest-profile.ts <list|count|get>. PROFILE=alloc instead samples
// every allocation (collected objects included) over the measured run and prints the bytes
// allocated per request and the top allocating functions (self); PROFILE=promoted samples only
// what survives young-generation collections (bytes promoted per request, and by whom).
// BENCH_AGENT_NODE_FLAGS adds node flags to the server (e.g. --trace-gc-nvp).
import { fork } from 'node:child_process';

import autocannon from 'autocannon';

import { allocationMode, ask, printAllocations } from './alloc-profile';
import { type BenchCase, caseUrls, cpuMicros } from './bench-common';
import { buildServer, workspaceNodePath } from './build-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CASE = (process.argv[2] ?? 'get') as BenchCase;

async function main(): Promise<void> {
  const alloc = allocationMode();
  const flags =
    alloc || process.env.PROFILE === 'none'
      ? []
      : process.env.PROFILE === 'heap'
        ? ['--heap-prof', '--heap-prof-interval=4096']
        : ['--cpu-prof'];
  const child = fork(await buildServer('hot-path-server.ts'), [], {
    execArgv: [...flags, ...(process.env.BENCH_AGENT_NODE_FLAGS ?? '').split(' ').filter(Boolean)],
    env: {
      ...process.env,
      NODE_PATH: workspaceNodePath(),
      ...(alloc ? { CANOPY_ALLOC_PROFILE: alloc } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve) =>
    child.once('message', resolve as (message: unknown) => void),
  );
  const url = caseUrls(`http://127.0.0.1:${port}/forest/orders`)[CASE];
  const headers = { Authorization: `Bearer ${token}` };
  await autocannon({ url, connections: 10, duration: 2, headers });
  if (alloc) await ask(child, 'alloc-start');
  const before = cpuMicros(child.pid as number);
  const result = await autocannon({ url, connections: 10, duration: SECONDS, headers });
  const used = cpuMicros(child.pid as number) - before;
  console.log(
    `${CASE}: ${Math.round(result.requests.average)} req/s, ${Math.round(used / result.requests.total)} CPU µs/req, errors ${result.errors + result.non2xx}`,
  );
  if (alloc) {
    const file = await ask(child, 'alloc-stop');
    printAllocations(file, result.requests.total);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

void main();
