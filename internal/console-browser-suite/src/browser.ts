/** Debian's Chromium driven by playwright-core, in a fresh profile. */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function openBrowser(
  options: { width?: number; height?: number; locale?: string; timezoneId?: string } = {},
): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'canopy-console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    timezoneId: options.timezoneId ?? 'Europe/Paris',
    locale: options.locale ?? 'en-GB',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
