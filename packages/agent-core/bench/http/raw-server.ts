// The baseline: a minimal HTTP server answering the benchmark's three queries with hand-written
// SQL through pg, JSON-encoded. Started as a child process by bench.ts; prints its port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import pg from 'pg';

import { serveAllocationProfile } from './alloc-profile';
import { serveInstructionMarks } from './instruction-marks';
import { BENCH_SCHEMA } from './seed';

const pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 10 });
const LIST = `SELECT o.id, o.status, o.amount, o.placed_at, c.id AS customer_id, c.name AS customer_name
  FROM ${BENCH_SCHEMA}.orders o LEFT JOIN ${BENCH_SCHEMA}.customers c ON c.id = o.customer_id
  WHERE o.status = $1 ORDER BY o.placed_at DESC LIMIT 15`;
const COUNT = `SELECT count(*)::int AS count FROM ${BENCH_SCHEMA}.orders WHERE status = $1`;
const GET = `SELECT o.*, c.id AS c_id, c.name AS c_name, c.email AS c_email
  FROM ${BENCH_SCHEMA}.orders o LEFT JOIN ${BENCH_SCHEMA}.customers c ON c.id = o.customer_id WHERE o.id = $1`;

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    let body: unknown;
    if (url.pathname === '/list') body = (await pool.query(LIST, ['paid'])).rows;
    else if (url.pathname === '/count') body = (await pool.query(COUNT, ['paid'])).rows[0];
    else if (url.pathname === '/get')
      body = (await pool.query(GET, [Number(url.searchParams.get('id'))])).rows[0];
    else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});

serveAllocationProfile();
serveInstructionMarks();

process.on('SIGTERM', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
