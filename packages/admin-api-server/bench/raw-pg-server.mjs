// The baseline of the public-API benchmark: a plain node `http` server with a `pg` pool that runs
// the same SQL as the activity-log list (given by the benchmark in RAW_QUERIES) and answers its
// rows as JSON. No framework, no auth, no rate limit: what the platform's overhead is measured
// against. Prints {"port": n} once listening; stops on SIGTERM.
import { createServer } from 'node:http';
import pg from 'pg';

const queries = JSON.parse(process.env.RAW_QUERIES ?? '{}');
const pool = new pg.Pool({
  connectionString: process.env.RAW_DATABASE_URL,
  max: Number(process.env.RAW_POOL_SIZE ?? 10),
  options: process.env.RAW_SCHEMA ? `-c search_path=${process.env.RAW_SCHEMA}` : undefined,
});

const server = createServer(async (req, res) => {
  const query = queries[new URL(req.url ?? '/', 'http://x').pathname.slice(1)];
  if (!query) {
    res.writeHead(404).end();
    return;
  }
  try {
    const result = await pool.query(query.sql, query.bindings);
    const body = JSON.stringify({ data: result.rows.slice(0, 100) });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end();
});
