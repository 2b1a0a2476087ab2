// The agent under test: createAgent on the benchmark database, against the platform sandbox that
// bench.ts runs in its own process (SANDBOX_URL), on a standalone server; with BENCH_MCP=1, with
// the MCP server mounted too. Started as a child process by bench.ts; sends its port and a
// session token.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

import { createSqlDataSource } from '@canopy/datasource-sql';

import { createAgent } from '../../src/agent/create-agent';
import { signSessionToken } from '../../src/http';
import { serveAllocationProfile } from './alloc-profile';
import { serveInstructionMarks } from './instruction-marks';
import { benchUrl } from './seed';

const AUTH_SECRET = 'http-bench-auth-secret';

async function main(): Promise<void> {
  const agent = createAgent({
    authSecret: AUTH_SECRET,
    envSecret: process.env.SANDBOX_ENV_SECRET as string,
    serverUrl: process.env.SANDBOX_URL as string,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-http-bench-')), '.canopy-schema.json'),
    isProduction: false,
    loggerLevel: 'Error',
  })
    .addDataSource(
      createSqlDataSource({
        uri: benchUrl(process.env.PG_URL as string),
        // Under instructions.ts (callgrind runs ~50 times slower): a longer connection timeout.
        ...(process.env.BENCH_DB_TIMEOUT_MS
          ? { connectionTimeoutInMs: Number(process.env.BENCH_DB_TIMEOUT_MS) }
          : {}),
      }),
    )
    .mountOnStandaloneServer(0, '127.0.0.1');
  if (process.env.BENCH_MCP === '1') agent.mountAiMcpServer();
  await agent.start();
  const token = signSessionToken(
    {
      id: 1,
      email: 'test.user@canopy.test',
      firstName: 'Test',
      lastName: 'User',
      team: 'admin',
      role: 'Admin',
      permissionLevel: 'user',
      renderingId: 1,
      tags: {},
    },
    AUTH_SECRET,
  );
  process.send?.({ port: agent.standaloneServerPort, token });
}

// Where the agent's memory is at its RSS peak: sampled here, sent when bench.ts asks. The sample
// reads the RSS alone (`memoryUsage()` walks the heap's spaces: 1–2 % of the agent's CPU under
// load, which the raw server does not pay), and the whole usage only at a new peak. Off under
// instructions.ts (BENCH_MEMORY_SAMPLER=off), where its cost would grow with callgrind's slowness.
let atPeak: NodeJS.MemoryUsage = process.memoryUsage();
if (process.env.BENCH_MEMORY_SAMPLER !== 'off') {
  setInterval(() => {
    if (process.memoryUsage.rss() > atPeak.rss) atPeak = process.memoryUsage();
  }, 100).unref();
}
process.on('message', (message) => {
  if (message === 'memory') process.send?.({ memory: atPeak });
  // heap-snapshot.ts: a snapshot of the running agent, written in the working directory.
  if (message === 'heap-snapshot') process.send?.({ snapshot: writeHeapSnapshot() });
});

serveAllocationProfile();
serveInstructionMarks();

process.on('SIGTERM', () => process.exit(0));

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
