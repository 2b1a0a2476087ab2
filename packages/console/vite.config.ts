import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Absolute asset URLs under CANOPY_CONSOLE_BASE (default `/`, where admin-api-server serves the
// console), so deep links such as /Shop/Production/data/orders/42 load. `pnpm dev` proxies the platform's paths to CANOPY_PLATFORM_URL, so the sign-in
// popup stays on the console's origin.
const platform = process.env.CANOPY_PLATFORM_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: process.env.CANOPY_CONSOLE_BASE ?? '/',
  plugins: [react()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (id.includes('node_modules/@mantine/dates') || id.includes('node_modules/dayjs'))
            return 'dates';
          if (id.includes('node_modules')) return 'vendor';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/oidc', '/v1'].map((path) => [path, { target: platform }]),
    ),
  },
});
