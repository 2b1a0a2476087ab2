import { join } from 'node:path';

/** Where things live inside a bootstrapped customization directory. */
export function projectFiles(directory: string) {
  return {
    env: join(directory, '.env'),
    entry: join(directory, 'src', 'index.ts'),
    typings: join(directory, 'src', 'typings.ts'),
    schema: join(directory, '.canopy-schema.json'),
  };
}

/** How many to-one relations deep the generated field paths go. */
export const TYPINGS_MAX_DEPTH = 3;
