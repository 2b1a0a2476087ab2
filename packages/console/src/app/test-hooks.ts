/**
 * The Console's test instrumentation, for the browser suite only: one flag,
 * `import.meta.env.CANOPY_TEST_HOOKS`, true in the suite's build (`CANOPY_CONSOLE_TEST_HOOKS=1`,
 * vite.config.ts) and false in every other one, where the minifier removes what it guards. Every
 * hook the suite reads on `window` or in the DOM goes through this module.
 */

declare global {
  interface ImportMetaEnv {
    /** Defined by vite.config.ts; absent under Vitest (false). */
    readonly CANOPY_TEST_HOOKS?: boolean;
  }
}

/** True in the browser suite's build only. */
export const TEST_HOOKS: boolean = import.meta.env.CANOPY_TEST_HOOKS === true;

/** One page's render time (see `useRenderMeasure`); the browser suite reads them. */
export interface RenderMeasure {
  collection: string;
  rows: number;
  ms: number;
  queuedMs: number;
  renderMs: number;
  allRowsMs?: number;
}

interface TestWindow {
  __canopyRenders?: RenderMeasure[];
  __canopyExports?: string[];
}

const testWindow = () => window as unknown as TestWindow;

/** Keeps a page's render measure (`window.__canopyRenders`), in the suite's build. */
export function recordRender(entry: RenderMeasure): void {
  if (TEST_HOOKS) (testWindow().__canopyRenders ??= []).push(entry);
}

/** Keeps how an export went, `stream` or `memory` (`window.__canopyExports`), in the suite's build. */
export function recordExport(mode: 'stream' | 'memory'): void {
  if (TEST_HOOKS) (testWindow().__canopyExports ??= []).push(mode);
}

/** A User Timing mark the suite measures the first screen with, in the suite's build. */
export function markTiming(name: 'canopy:signed-in' | 'canopy:first-screen'): void {
  if (TEST_HOOKS) performance.mark(name);
}
