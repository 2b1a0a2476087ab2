import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// Absolute asset URLs under CANOPY_CONSOLE_BASE (default `/`, where admin-api-server serves the
// console), so deep links such as /Shop/Production/data/orders/42 load. `pnpm dev` proxies the platform's paths to CANOPY_PLATFORM_URL, so the sign-in
// popup stays on the console's origin.
const platform = process.env.CANOPY_PLATFORM_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: process.env.CANOPY_CONSOLE_BASE ?? '/',
  // Brotli and gzip copies of each script and style sheet (`x.js.br`, `x.js.gz`), which
  // admin-api-server sends to browsers that accept them.
  plugins: [
    react(),
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|svg|json)$/,
      threshold: 1024,
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
          // What every page needs (React, Mantine, the router, TanStack) is one long-cached
          // chunk. Everything else is split with the pages that use it: the date inputs load
          // when first drawn (src/app/components/lazy-dates.tsx), the charts (Recharts, d3…)
          // with the dashboard, the record and other pages when first opened (routes.tsx).
          if (
            /node_modules\/\.pnpm\/(react|react-dom|scheduler|@mantine\+(core|hooks|notifications)|@floating-ui\+[a-z-]+|@tanstack\+[a-z-]+|react-router|dayjs|tslib|clsx)@/.test(
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
