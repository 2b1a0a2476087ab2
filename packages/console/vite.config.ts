import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// Absolute asset URLs under CANOPY_CONSOLE_BASE (default `/`, where admin-api-server serves the
// console), so deep links such as /Shop/Production/data/orders/42 load. `pnpm dev` proxies the platform's paths to CANOPY_PLATFORM_URL, so the sign-in
// popup stays on the console's origin.
const platform = process.env.CANOPY_PLATFORM_URL ?? 'http://127.0.0.1:3000';

// The browser suite's build (CANOPY_CONSOLE_TEST_HOOKS=1) keeps the test hooks (src/app/test-hooks.ts);
// any other build has `import.meta.env.CANOPY_TEST_HOOKS` false, and the minifier drops them.
const testHooks = process.env.CANOPY_CONSOLE_TEST_HOOKS === '1';

export default defineConfig({
  base: process.env.CANOPY_CONSOLE_BASE ?? '/',
  define: { 'import.meta.env.CANOPY_TEST_HOOKS': JSON.stringify(testHooks) },
  plugins: [
    react(),
    // Says in the page which kind of build it is, so the suite rebuilds a production one.
    {
      name: 'canopy-test-hooks-marker',
      transformIndexHtml: () =>
        testHooks ? [{ tag: 'meta', attrs: { name: 'canopy-test-hooks', content: 'on' } }] : [],
    },
    // Brotli and gzip copies of each script and style sheet (`x.js.br`, `x.js.gz`), which
    // admin-api-server sends to browsers that accept them; small chunks too (no threshold): the
    // first screen loads about ten shared chunks under 1 kB, which were sent uncompressed.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|svg|json)$/,
      threshold: 0,
      logLevel: 'silent',
    }),
  ],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks(id) {
          // What every page needs (React, the router, TanStack, dayjs, Mantine's hooks and
          // notifications) is one long-cached chunk. Mantine's components and the icons are split
          // with what uses them, so the first screen carries only its own; the rest loads with
          // the pages and dialogs that need it (routes.tsx, lazy-dates.tsx, the filter builder,
          // the password dialog), the charts (Recharts, d3…) with the dashboard.
          if (
            /node_modules\/\.pnpm\/(react|react-dom|scheduler|@mantine\+(hooks|notifications)|@floating-ui\+[a-z-]+|@tanstack\+[a-z-]+|react-router|dayjs|tslib|clsx)@/.test(
              id,
            )
          )
            return 'vendor';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(['/oidc', '/v1'].map((path) => [path, { target: platform }])),
  },
});
