// Profiles the REST layer alone (hot-path-server.ts) on one case: starts the server with
// --cpu-prof (or --heap-prof with PROFILE=heap), drives it with autocannon for BENCH_SECONDS at 10
// connections and prints the server's CPU µs per request. The profile lands in the working
// directory. Run: tsx bench/http/rest-profile.ts <list|count|get>. PROFILE=alloc instead samples
// every allocation (collected objects included) over the measured run and prints the bytes
// allocated per request and the top allocating functions (self); PROFILE=promoted samples only
// what survives young-generation collections (bytes promoted per request, and by whom).
// BENCH_AGENT_NODE_FLAGS adds node flags to the server (e.g. --trace-gc-nvp).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

import autocannon from 'autocannon';

import { buildServer, workspaceNodePath } from './build-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CASE = process.argv[2] ?? 'get';

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function main(): Promise<void> {
  const alloc = process.env.PROFILE === 'alloc' || process.env.PROFILE === 'promoted';
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
      ...(alloc ? { CANOPY_ALLOC_PROFILE: process.env.PROFILE } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve) =>
    child.once('message', resolve as (message: unknown) => void),
  );
  const filters = encodeURIComponent(
    JSON.stringify({ field: 'status', operator: 'equal', value: 'paid' }),
  );
  const base = `http://127.0.0.1:${port}/forest/orders`;
  const url = {
    list: `${base}?timezone=Europe/Paris&filters=${filters}&sort=-placed_at&page[number]=1&page[size]=15&fields[orders]=id,status,amount,placed_at,customer&fields[customer]=name`,
    count: `${base}/count?timezone=Europe/Paris&filters=${filters}`,
    get: `${base}/4242?timezone=Europe/Paris`,
  }[CASE] as string;
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

function ask(child: ReturnType<typeof fork>, message: string): Promise<string> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(String(answer)));
    child.send(message);
  });
}

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}

/** Bytes allocated per request and the 25 functions allocating the most (self). */
function printAllocations(file: string, requests: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: SampledNode };
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: SampledNode): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(visit);
  };
  visit(profile.head);
  const what = process.env.PROFILE === 'promoted' ? 'promoted or still alive' : 'allocated';
  console.log(`${Math.round(total / requests)} bytes ${what} per request (${file})`);
  for (const [key, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${String(Math.round(bytes / requests)).padStart(7)} B/req  ${key}`);
  }
}

void main();
