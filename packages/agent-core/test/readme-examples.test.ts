import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExamples } from '../examples/run-examples';

const examples = join(__dirname, '..', 'examples');
const shown = readdirSync(examples).filter((file) => file !== 'run-examples.ts');

/**
 * Every file of `examples/` except the runner is shown whole in the README, and runs against a
 * real PostgreSQL (`PG_URL`) and the platform sandbox (`pnpm verify:pack` runs them again from
 * the packed tarballs).
 */
describe('README examples', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it.each(shown)('shows examples/%s as it is', (file) => {
    const code = readFileSync(join(examples, file), 'utf8');
    expect(readme).toContain('```ts\n' + code + '```');
  });

  it('runs them on PostgreSQL', async () => {
    const ran = await runExamples(process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    expect(ran).toEqual([
      'start-an-agent',
      'mount-on-express',
      'generate-schema',
      'mcp-server',
      'ai-proxy',
      'record-history',
    ]);
  }, 120_000);
});
