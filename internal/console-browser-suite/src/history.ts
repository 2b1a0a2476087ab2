/**
 * Browser check of a record's History tab: the demo's agent runs with `auditTrail`, so the edits
 * the suite made to the order it opened (status → shipped, then → delivered after the expired
 * session) are in its history, with who made them and the values before and after.
 */
import type { Page } from 'playwright-core';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';

export async function runHistoryTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  recordUrl: string,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  // The reference agent of `--agent reference` runs without a history store.
  if (fixture.agentKind !== 'canopy' || !recordUrl) return;
  await suite.test(
    "the record's History tab shows who changed which field, before and after",
    async () => {
      await p.goto(recordUrl.split('?')[0]!);
      await p.getByRole('tab', { name: 'History' }).click();
      await p.waitForURL(/tab=history/);
      const table = p.getByRole('table', { name: 'History' });
      await table.waitFor();
      const change = table
        .locator('[data-testid="history-change"][data-field="status"]')
        .filter({ hasText: 'delivered' })
        .first();
      await change.waitFor();
      const text = (await change.textContent()) ?? '';
      expect(/Status: \w+ → delivered/.test(text), `the change shows before → after (${text})`);
      const row = change.locator('xpath=ancestor::tr[@data-testid="history-row"]');
      const cells = await row.locator('td').allTextContents();
      expect(cells[2] === 'Updated', `the entry is an update (${cells.join(' | ')})`);
      expect(
        cells[1] !== undefined && cells[1] !== '' && cells[1] !== 'Unknown user',
        `the entry names who made it (${cells[1]})`,
      );
      // Newest first: the change to delivered comes before the one to shipped.
      const statuses = await table
        .locator('[data-testid="history-change"][data-field="status"]')
        .allTextContents();
      const delivered = statuses.findIndex((value) => value.endsWith('→ delivered'));
      const shipped = statuses.findIndex((value) => value.endsWith('→ shipped'));
      expect(delivered >= 0 && shipped > delivered, `newest first (${statuses.join(' / ')})`);
      await shot(p, 'record-history');
    },
  );
}
