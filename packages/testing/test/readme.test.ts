import { readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('README', () => {
  it('shows the jest workflow exactly as test/readme-workflow.test.ts runs it', () => {
    const workflow = readFileSync(join(__dirname, 'readme-workflow.test.ts'), 'utf8');
    const region = workflow.split('// readme:start\n')[1]?.split('// readme:end')[0];
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    expect(region).toBeDefined();
    expect(readme).toContain('```ts\n' + region + '```');
  });
});
