/**
 * Runs the browser suite: `tsx e2e/run.ts [--agent canopy|reference] [--core]
 * [--screenshots DIR] [--results FILE]`. Prints the measures and `N passed, N failed`.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildConsoleWithTestHooks } from './console-test-build';
import { startFixture, type AgentKind } from './fixture';
import { runSuite } from './suite';

const { values } = parseArgs({
  options: {
    agent: { type: 'string', default: 'canopy' },
    core: { type: 'boolean', default: false },
    screenshots: { type: 'string' },
    results: { type: 'string' },
  },
});
const kind = values.agent as AgentKind;
if (kind !== 'canopy' && kind !== 'reference') throw new Error('--agent is canopy or reference');

// The console under test is the one of these sources, with its test hooks: built here when
// missing, stale or built without them.
console.log(await buildConsoleWithTestHooks());
const fixture = await startFixture(kind);
let passed = 0;
let failed = 0;
try {
  console.log(`console ${fixture.consoleUrl} · agent ${fixture.agentUrl} (${kind})`);
  const { suite, measures } = await runSuite(fixture, {
    core: values.core || kind === 'reference',
    screenshots: values.screenshots,
  });
  ({ passed, failed } = suite.summary());
  console.log(
    `measures: first screen after login ${measures.firstScreenMs ?? '—'} ms, ` +
      `100-row page rendered ${measures.render100Ms?.toFixed(1) ?? '—'} ms after its data arrived`,
  );
  if (values.results)
    writeFileSync(
      values.results,
      JSON.stringify({ passed, failed, measures, results: suite.results }),
    );
} finally {
  await fixture.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
