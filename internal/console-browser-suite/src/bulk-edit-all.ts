/**
 * Issue 32's bulk edit at full size, in Chromium: the admin selects all 20,000 orders across
 * pages, sets one status on every one of them after a preview of the count, and confirms; the
 * database then holds that status on all of them, an order's History shows its change and its
 * Activity the update. Canopy's agent (one request on its bulk route). The statuses are put back
 * with SQL from a copy taken before: through the agent, 20,000 restoring writes would take
 * minutes and fill the history the later checks read.
 */
import type { Page } from 'playwright-core';
import type { Fixture } from './fixture';
import { historyChangeOf, waitForUpdateActivity } from './bulk-edit';
import { expect, type Suite } from './harness';
import { openCollection, pick, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

const STATUS = 'cancelled';

export async function runBulkEditAllTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  if (fixture.agentKind !== 'canopy') return;
  await suite.test(
    '(admin) bulk edit: all 20,000 orders get one status, after a preview of the count',
    async () => {
      const [counted] = await fixture.shopSql<{ total: string }>(
        'SELECT count(*) AS total FROM orders',
      );
      expect(Number(counted?.total) === 20_000, `20,000 orders in the shop (${counted?.total})`);
      await fixture.shopSql('DROP TABLE IF EXISTS e2e_order_statuses');
      await fixture.shopSql('CREATE TABLE e2e_order_statuses AS SELECT id, status FROM orders');
      const [sample] = await fixture.shopSql<{ id: number; status: string }>(
        'SELECT id, status::text AS status FROM orders WHERE status <> ? ORDER BY id LIMIT 1',
        [STATUS],
      );
      try {
        await openCollection(p, 'Orders');
        const ordersUrl = p.url().split('?')[0]!;
        await p.goto(`${ordersUrl}?size=15`);
        await p.locator('tbody tr[data-record-id]').first().waitFor();
        await settle(p);
        await p.getByRole('checkbox', { name: 'Select every record of this page' }).check();
        await p.getByRole('button', { name: 'Select all 20,000 orders' }).click();
        await p.getByText('All 20,000 orders are selected.').waitFor();
        await p.getByRole('button', { name: 'Edit 20,000' }).click();
        const dialog = p.getByRole('dialog', { name: 'Edit 20,000 records' });
        await dialog.getByRole('textbox', { name: 'Fields to change' }).click();
        await p.getByRole('option', { name: 'Status', exact: true }).click();
        await p.keyboard.press('Escape');
        await pick(p, 'Status', STATUS);
        await dialog.getByRole('button', { name: 'Preview' }).click();
        await dialog.getByText('20,000 records will change.').waitFor();
        await shot(p, 'bulk-edit-all-preview');
        await dialog.getByRole('button', { name: 'Edit 20,000 records' }).click();
        await p.getByText('20,000 records updated.').waitFor({ timeout: 120_000 });
        await shot(p, 'bulk-edit-all-done');
        const [left] = await fixture.shopSql<{ other: string }>(
          'SELECT count(*) AS other FROM orders WHERE status <> ?',
          [STATUS],
        );
        expect(Number(left?.other) === 0, `every order has the new status (${left?.other} left)`);

        // One of them: its History shows its change, its Activity the update.
        const recordUrl = `${ordersUrl}/${sample!.id}`;
        const text = await historyChangeOf(p, recordUrl, 'status');
        expect(
          text.includes(`${sample!.status} → ${STATUS}`),
          `order ${sample!.id}'s history shows the change: ${text}`,
        );
        // The agent answers at most 10,000 entries of one request: the group says it is larger
        // and offers no whole revert (which would undo only the part it knows).
        const group = p.getByTestId('history-group').first();
        const said = (await group.textContent()) ?? '';
        expect(
          /\d[\d,]*\+ entries/.test(said) && /too large to revert/.test(said),
          `the group: ${said}`,
        );
        expect(
          (await group.getByRole('button', { name: 'Revert the whole request…' }).count()) === 0,
          'no whole revert of a request only partly known',
        );
        await shot(p, 'bulk-edit-all-history');
        await waitForUpdateActivity(p, recordUrl);
        await shot(p, 'bulk-edit-all-activity');
      } finally {
        await fixture.shopSql(
          'UPDATE orders SET status = b.status FROM e2e_order_statuses b WHERE orders.id = b.id',
        );
        await fixture.shopSql('DROP TABLE e2e_order_statuses');
      }
    },
  );
}
