// What the benchmark scripts share: the three measured requests and the /proc readings.
import { readFileSync } from 'node:fs';

export type BenchCase = 'list' | 'count' | 'get';

/**
 * The agent's URLs of the three cases under `base` (`http://host:port/forest/orders`): list (15
 * records, a filter, a sort, a many-to-one field), count with the same filter, get one.
 */
export function caseUrls(base: string): Record<BenchCase, string> {
  const filters = encodeURIComponent(
    JSON.stringify({ field: 'status', operator: 'equal', value: 'paid' }),
  );
  return {
    list: `${base}?timezone=Europe/Paris&filters=${filters}&sort=-placed_at&page[number]=1&page[size]=15&fields[orders]=id,status,amount,placed_at,customer&fields[customer]=name`,
    count: `${base}/count?timezone=Europe/Paris&filters=${filters}`,
    get: `${base}/4242?timezone=Europe/Paris`,
  };
}

/** CPU time (user + system) a process has used, in microseconds, from /proc. */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** A process's resident set size in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
