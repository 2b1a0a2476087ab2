import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The code between each `// readme:start` and the next `// readme:end` of a test file. */
function regions(file: string): string[] {
  const source = readFileSync(join(__dirname, file), 'utf8');
  return source
    .split('// readme:start\n')
    .slice(1)
    .map((part) => part.split('// readme:end')[0] as string);
}

describe('README', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it.each(['readme-workflow.test.ts', 'readme-client.test.ts'])(
    'shows the regions of test/%s exactly as they run',
    (file) => {
      const shown = regions(file);
      expect(shown.length).toBeGreaterThan(0);
      for (const region of shown) {
        const dedented = region.replace(/^ {2}/gm, '');
        expect(
          readme.includes('```ts\n' + region + '```') ||
            readme.includes('```ts\n' + dedented + '```'),
        ).toBe(true);
      }
    },
  );
});
