// Sampling heap profiles of a benchmark server, driven over IPC by the profiling scripts.
// PROFILE=alloc keeps the objects already collected, i.e. samples every allocation; PROFILE=promoted
// keeps only the objects collected by full collections: what young-generation collections promoted
// (plus what is still alive), the allocations that grow the old space.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import type { ChildProcess } from 'node:child_process';

/** In the server: answers `alloc-start` / `alloc-stop` when CANOPY_ALLOC_PROFILE is set. */
export function serveAllocationProfile(): void {
  const mode = process.env.CANOPY_ALLOC_PROFILE;
  if (!mode) return;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  process.on('message', (message) => {
    if (message === 'alloc-start') {
      void post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: mode !== 'promoted',
      }).then(() => process.send?.('alloc-started'));
    } else if (message === 'alloc-stop') {
      void post('HeapProfiler.stopSampling').then((result) => {
        const file = `alloc-${Date.now()}.heapprofile`;
        writeFileSync(file, JSON.stringify((result as { profile: unknown }).profile));
        process.send?.(file);
      });
    }
  });
}

/** In the profiling script: the PROFILE modes handled here, and the server's environment. */
export function allocationMode(): 'alloc' | 'promoted' | null {
  const profile = process.env.PROFILE;
  return profile === 'alloc' || profile === 'promoted' ? profile : null;
}

/** Sends `message` to the server and resolves with its answer. */
export function ask(child: ChildProcess, message: string): Promise<string> {
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

/** Bytes per request and the 25 functions allocating the most (self). */
export function printAllocations(file: string, requests: number): void {
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
  const what = allocationMode() === 'promoted' ? 'promoted or still alive' : 'allocated';
  console.log(`${Math.round(total / requests)} bytes ${what} per request (${file})`);
  for (const [key, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${String(Math.round(bytes / requests)).padStart(7)} B/req  ${key}`);
  }
}
