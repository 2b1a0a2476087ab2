// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per source
// (package or file), as percentages of the sampled time without idle and GC markers listed apart.
//   tsx bench/profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function source(url: string): string {
  if (!url) return '(native)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1] as string;
  const packages = /packages\/([^/]+)\/(.*)$/.exec(url);
  if (packages) return `${packages[1]}/${packages[2]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});

const functions = new Map<string, number>();
const sources = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, time] of selfTime) {
  const frame = (byId.get(id) as ProfileNode).callFrame;
  if (frame.functionName === '(idle)') {
    idle += time;
    continue;
  }
  total += time;
  const where = source(frame.url);
  const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  sources.set(where, (sources.get(where) ?? 0) + time);
}

// Inclusive time: each sample counts once for every function on its stack.
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
profile.samples.forEach((id, index) => {
  const frame = (byId.get(id) as ProfileNode).callFrame;
  if (frame.functionName === '(idle)') return;
  const seen = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
    const { functionName, url } = (byId.get(node) as ProfileNode).callFrame;
    if (functionName === '(root)') continue;
    seen.add(`${functionName || '(anonymous)'} ${source(url)}`);
  }
  for (const name of seen) {
    inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
});

const percent = (time: number) => `${((100 * time) / total).toFixed(1).padStart(5)}%`;
console.log(`busy ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms\n`);
console.log('self time by source');
for (const [name, time] of [...sources].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(percent(time), name);
}
console.log('\nself time by function');
for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(percent(time), name);
}
console.log('\ninclusive time by function');
for (const [name, time] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(percent(time), name);
}
