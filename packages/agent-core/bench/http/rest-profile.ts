// Profiles the REST layer alone (hot-path-server.ts) on one case: starts the server with
// --cpu-prof (or --heap-prof with PROFILE=heap), drives it with autocannon for BENCH_SECONDS at 10
// connections and prints the server's CPU µs per request. The profile lands in the working
// directory. Run: tsx bench/http/rest-profile.ts <list|count|get>
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
  const flags =
    process.env.PROFILE === 'heap'
      ? ['--heap-prof', '--heap-prof-interval=4096']
      : process.env.PROFILE === 'none'
        ? []
        : ['--cpu-prof'];
  const child = fork(await buildServer('hot-path-server.ts'), [], {
    execArgv: flags,
    env: { ...process.env, NODE_PATH: workspaceNodePath() },
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
  const before = cpuMicros(child.pid as number);
  const result = await autocannon({ url, connections: 10, duration: SECONDS, headers });
  const used = cpuMicros(child.pid as number) - before;
  console.log(
    `${CASE}: ${Math.round(result.requests.average)} req/s, ${Math.round(used / result.requests.total)} CPU µs/req, errors ${result.errors + result.non2xx}`,
  );
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

void main();
