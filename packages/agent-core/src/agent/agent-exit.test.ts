import { runAgentProbe } from '../../test/agent-probe';

/**
 * The strongest check that `stop()` leaves nothing behind: a separate Node process starts an
 * agent against the sandbox, stops it, and must then exit by itself (no timer, socket or stream
 * left), well before the time limit.
 */
describe('a stopped agent lets the process exit', () => {
  it('exits on its own after start() and stop()', () => {
    const started = Date.now();
    const result = runAgentProbe(
      {
        running: [`  await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/forest/\`);`],
        stopped: ["  console.log('stopped');"],
      },
      30_000,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('stopped');
    expect(result.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);
});
