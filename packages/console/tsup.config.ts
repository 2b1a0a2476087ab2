import { defineConfig } from 'tsup';

// The Node entry only (where the built app is, and the config types); Vite builds the app.
export default defineConfig({
  entry: { index: 'src/node/index.ts' },
  format: ['cjs', 'esm'],
  dts: true,
  target: 'node20',
  platform: 'node',
  shims: true,
  clean: false,
  splitting: false,
});
