// Writes a heap snapshot of the agent on PostgreSQL after start (agent-server.ts against the
// platform sandbox; BENCH_MCP=1 mounts the MCP server) and prints what holds its heap: self size
// by node type and by constructor, and the scripts whose source the heap keeps, by package.
// Run: tsx bench/http/heap-snapshot.ts. The database must already be seeded (run bench once).
import { readFileSync } from 'node:fs';

import { createServerSandbox } from '@canopy/testing';

import { rssMb } from './bench-common';
import { forkAgentServer } from './build-server';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

function top(sizes: Map<string, number>, count: number): string {
  return [...sizes]
    .sort((left, right) => right[1] - left[1])
    .slice(0, count)
    .map(([name, size]) => `  ${(size / 1024 / 1024).toFixed(2).padStart(6)} MiB  ${name}`)
    .join('\n');
}

function summarize(file: string): void {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byType = new Map<string, number>();
  const byName = new Map<string, number>();
  let total = 0;
  for (let index = 0; index < data.nodes.length; index += width) {
    const type = types[data.nodes[index + typeAt] as number] as string;
    const size = data.nodes[index + sizeAt] as number;
    const name =
      type === 'object' || type === 'code'
        ? (data.strings[data.nodes[index + nameAt] as number] ?? '')
        : '';
    total += size;
    byType.set(type, (byType.get(type) ?? 0) + size);
    const key = `${type} ${name.slice(0, 60)}`;
    if (name) byName.set(key, (byName.get(key) ?? 0) + size);
  }
  console.log(`heap snapshot: ${(total / 1024 / 1024).toFixed(1)} MiB of live objects`);
  console.log(`by node type:\n${top(byType, 12)}`);
  console.log(`by constructor / code name:\n${top(byName, 25)}`);
}

async function main(): Promise<void> {
  const sandbox = await createServerSandbox(0);
  const child = await forkAgentServer(sandbox.url, []); // [], not tsx's loader
  await new Promise((resolve) => child.once('message', resolve));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`agent RSS after start: ${rssMb(child.pid as number).toFixed(0)} MiB`);
  child.send('heap-snapshot');
  const { snapshot: file } = await new Promise<{ snapshot: string }>((resolve) =>
    child.once('message', resolve as (message: unknown) => void),
  );
  child.kill('SIGTERM');
  await sandbox.close();
  console.log(`snapshot: ${file}`);
  summarize(file);
}

void main();
