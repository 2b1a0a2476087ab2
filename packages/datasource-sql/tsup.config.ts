import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['cjs', 'esm'],
  dts: { resolve: false },
  tsconfig: 'tsconfig.build.json',
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: false,
});
