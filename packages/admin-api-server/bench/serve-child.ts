/** A server process of the benches: started, its port read from its log, stopped. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts a child whose first stdout line with a `port` (a JSON log line) names its port. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  const port = new Promise<number>((resolvePort, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { port?: number; msg?: string };
        if (typeof entry.port === 'number') {
          resolvePort(entry.port);
          // Keep draining stdout (request logs) without reading it.
          lines.close();
          child.stdout!.resume();
        }
      } catch {
        // not a JSON line
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${args[0]} exited with ${code}: ${stderr.join('')}`)),
    );
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, port, stop };
}
