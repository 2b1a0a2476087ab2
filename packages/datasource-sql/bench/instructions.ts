// Instructions per query of the data source's list, get and count on PostgreSQL, against `pg`'s
// own pool running the same SQL by hand (`raw`), counted by valgrind's callgrind: instructions
// executed, not time, so the figures do not move with the machine's load. The data source runs
// here without HTTP, agent or decorators, so this is the cost of this package and its drivers
// alone. Uses agent-core's HTTP benchmark database (schema canopy_http_bench, seeded by
// `BENCH_PART=pg pnpm bench` in packages/agent-core).
//   pnpm exec tsx bench/instructions.ts [source|raw] [list,get,count]
// Settings: PG_URL, INSTRUCTIONS_WARMUP (default 2000), INSTRUCTIONS_QUERIES (default 2000),
// INSTRUCTIONS_PREPARED=false (the data source's `preparedStatements` option).
// With BACKEND_CPU=1, no callgrind: prints the CPU time PostgreSQL's backend processes spent per
// query (utime + stime of the pool's backends from /proc, 10 ms ticks; the server must run on
// this machine) and this process's own.
// The measured process runs with `--single-threaded` (V8's collector and compilers on the main
// thread) so that counts repeat; the counters are zeroed and dumped around each case by two
// marks (os.getPriority(), os.hostname()) that nothing else here calls.
import { Aggregation, Filter, Page, PaginatedFilter, Projection } from '@canopy/agent-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openSqlDataSource } from '../src/index';
import { BASE_URL, benchCaller as caller, withSchema } from './setup';

const SCHEMA = 'canopy_http_bench';
const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 2000);
const QUERIES = Number(process.env.INSTRUCTIONS_QUERIES ?? 2000);
const CASES = ['list', 'get', 'count'] as const;
type Case = (typeof CASES)[number];

/** The raw server's statements (agent-core's bench/http/raw-server.ts). */
const RAW_SQL: Record<Case, [string, unknown[]]> = {
  list: [
    `SELECT o.id, o.status, o.amount, o.placed_at, c.id AS customer_id, c.name AS customer_name
  FROM ${SCHEMA}.orders o LEFT JOIN ${SCHEMA}.customers c ON c.id = o.customer_id
  WHERE o.status = $1 ORDER BY o.placed_at DESC LIMIT 15`,
    ['paid'],
  ],
  get: [
    `SELECT o.*, c.id AS c_id, c.name AS c_name, c.email AS c_email
  FROM ${SCHEMA}.orders o LEFT JOIN ${SCHEMA}.customers c ON c.id = o.customer_id WHERE o.id = $1`,
    [4242],
  ],
  count: [`SELECT count(*)::int AS count FROM ${SCHEMA}.orders WHERE status = $1`, ['paid']],
};

async function measured(): Promise<void> {
  const [side, list] = process.argv.slice(2);
  const cases = (list ?? CASES.join(',')).split(',') as Case[];
  const run: Record<Case, () => Promise<unknown>> = { list: noop, get: noop, count: noop };
  let close: () => Promise<void>;
  /** Process ids of the pool's PostgreSQL backends. */
  let backends: () => number[];
  if (side === 'raw') {
    const pool = new pg.Pool({ connectionString: BASE_URL, max: 10 });
    for (const name of CASES) {
      const [sql, values] = RAW_SQL[name];
      run[name] = () => pool.query(sql, values);
    }
    close = () => pool.end();
    backends = () =>
      (pool as unknown as { _clients: Array<{ processID: number }> })._clients.map(
        (client) => client.processID,
      );
  } else {
    const dataSource = await openSqlDataSource(withSchema(SCHEMA), {
      preparedStatements: process.env.INSTRUCTIONS_PREPARED !== 'false',
    });
    const orders = dataSource.getCollection('orders');
    const status = { field: 'status', operator: 'Equal', value: 'paid' } as const;
    // What the agent asks for the HTTP benchmark's requests (list with the customer's name,
    // get by id with the customer's key, count with a filter).
    const listFilter = new PaginatedFilter({
      conditionTree: status,
      sort: [{ field: 'placed_at', ascending: false }],
      page: new Page(0, 15),
    });
    const listProjection = new Projection('id', 'status', 'amount', 'placed_at', 'customer:name');
    const getFilter = new PaginatedFilter({
      conditionTree: { field: 'id', operator: 'Equal', value: 4242 },
      page: new Page(0, 1),
    });
    const getProjection = new Projection(
      'id',
      'customer_id',
      'status',
      'amount',
      'placed_at',
      'customer:id',
    );
    const countFilter = new Filter({ conditionTree: status });
    const count = new Aggregation({ operation: 'Count' });
    run.list = () => orders.list(caller, listFilter, listProjection);
    run.get = () => orders.list(caller, getFilter, getProjection);
    run.count = () => orders.aggregate(caller, countFilter, count);
    close = () => dataSource.close();
    backends = () => {
      const pool = dataSource.knex.client.pool as {
        free: Array<{ resource: { processID: number } }>;
        used: Array<{ resource: { processID: number } }>;
      };
      return [...pool.free, ...pool.used].map((item) => item.resource.processID);
    };
  }
  if (process.env.BACKEND_CPU === '1') {
    const rows = [];
    for (const name of cases) {
      for (let index = 0; index < WARMUP; index += 1) await run[name]();
      const pids = backends();
      const before = pids.map(cpuMicros);
      const own = process.cpuUsage();
      for (let index = 0; index < QUERIES; index += 1) await run[name]();
      const spent = pids
        .map(cpuMicros)
        .reduce((sum, value, index) => sum + value - (before[index] as number), 0);
      const mine = process.cpuUsage(own);
      rows.push({
        side,
        case: name,
        queries: QUERIES,
        'PG backend CPU µs per query': Number((spent / QUERIES).toFixed(1)),
        'node CPU µs per query': Number(((mine.user + mine.system) / QUERIES).toFixed(1)),
      });
    }
    console.table(rows);
    await close();
    return;
  }
  for (const name of cases) {
    for (let index = 0; index < WARMUP; index += 1) await run[name]();
    getPriority();
    for (let index = 0; index < QUERIES; index += 1) await run[name]();
    hostname();
  }
  await close();
}

async function noop(): Promise<void> {}

/** CPU time (user + system) of a process, in microseconds, from /proc. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The instructions (`Ir`) a callgrind dump file totals. */
function totalInstructions(file: string): number {
  const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(file, 'utf8'));
  if (!total) throw new Error(`no instruction total in ${file}`);
  return Number(total[1]);
}

async function main(): Promise<void> {
  const side = process.argv[2] === 'raw' ? 'raw' : 'source';
  const cases = (process.argv[3] ?? CASES.join(',')).split(',') as Case[];
  const outdir = mkdtempSync(join(tmpdir(), 'canopy-sql-instructions-'));
  try {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${join(outdir, 'callgrind.out')}`,
        '--zero-before=uv_os_getpriority',
        '--dump-before=uv_os_gethostname',
        process.execPath,
        '--single-threaded',
        ...process.execArgv,
        __filename,
        side,
        cases.join(','),
      ],
      { env: { ...process.env, INSTRUCTIONS_MEASURED: '1' }, stdio: ['ignore', 'inherit', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0)
      throw new Error(`measured process exited with ${code}:\n${stderr.slice(-2000)}`);
    // One dump per case, in order (callgrind numbers them), then the final one at exit.
    const dumps = readdirSync(outdir)
      .filter((file) => /\.\d+$/.test(file))
      .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
    console.table(
      cases.map((name, index) => ({
        side,
        case: name,
        queries: QUERIES,
        'instructions per query': Math.round(
          totalInstructions(join(outdir, dumps[index] as string)) / QUERIES,
        ),
      })),
    );
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

(process.env.INSTRUCTIONS_MEASURED || process.env.BACKEND_CPU === '1' ? measured() : main()).catch(
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
