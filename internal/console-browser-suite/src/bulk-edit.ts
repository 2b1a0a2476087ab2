/**
 * Bulk edit in the collection list (issue 32): select every order of a view across pages (one
 * excluded), "Edit N", pick the status and a value, read the preview's count, confirm; then every
 * selected order has the new status on the agent, the excluded one not, and a changed order's
 * Activity and History tabs show the change, and History reverts the whole bulk edit in one step
 * (one request, one correlation). The orders touched (ids 10001–10040, which no other
 * check reads) get their statuses back at the end. The support member's role holds the edit right
 * too (it lacks delete and export on orders only): it is offered the bulk edit, and its preview
 * counts the records of its own view (nothing is written); once the role loses the edit right on
 * orders (for one check, then given back), the orders list offers no bulk edit. The core (every
 * agent: the reference agent has no bulk route) is the bulk edit by one PUT per record.
 */
import type { Page } from 'playwright-core';
import { openRecordActivity } from './activity-outcome';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, pick, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

const STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'];
const FIRST = 10_001;
const LAST = 10_040;
const RANGE = JSON.stringify({
  aggregator: 'and',
  conditions: [
    { field: 'id', operator: 'greater_than_or_equal', value: FIRST },
    { field: 'id', operator: 'less_than_or_equal', value: LAST },
  ],
});

const rows = (page: Page) => page.locator('tbody tr[data-record-id]');

/** The agent, called with the page's own session token; its JSON answer (none for a 204). */
export async function agentCall<T>(
  page: Page,
  fixture: Fixture,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}') as { token?: string })
        .token,
  );
  const response = await fetch(
    `${fixture.agentUrl}/forest${path}${path.includes('?') ? '&' : '?'}timezone=UTC`,
    {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The statuses of the orders of the range, by id, as the agent reads them. */
async function statusesOnAgent(page: Page, fixture: Fixture): Promise<Map<string, string>> {
  const answer = await agentCall<{ data: { id: string; attributes: { status: string } }[] }>(
    page,
    fixture,
    'GET',
    `/orders?fields[orders]=id,status&page[size]=100&filters=${encodeURIComponent(RANGE)}`,
  );
  return new Map(answer.data.map((row) => [row.id, row.attributes.status]));
}

/**
 * Puts the statuses back: one bulk update per status, or one PUT per order on an agent without
 * the bulk route (the reference agent).
 */
async function restore(page: Page, fixture: Fixture, before: Map<string, string>) {
  if (fixture.agentKind !== 'canopy') {
    const now = await statusesOnAgent(page, fixture);
    for (const [id, status] of before) {
      if (now.get(id) === status) continue;
      await agentCall(page, fixture, 'PUT', `/orders/${id}`, {
        data: { type: 'orders', id, attributes: { status } },
      });
    }
    return;
  }
  for (const status of new Set(before.values())) {
    const ids = [...before].filter(([, value]) => value === status).map(([id]) => id);
    await agentCall(page, fixture, 'PATCH', '/orders', {
      data: { type: 'orders', attributes: { status } },
      meta: { selection: { ids } },
    });
  }
}

/** Opens the orders of the range (a full load of `ordersUrl`), and selects all 40 of them. */
async function selectRange(page: Page, ordersUrl: string): Promise<void> {
  await page.goto(`${ordersUrl}?size=15&sort=id&filters=${encodeURIComponent(RANGE)}`);
  await rows(page).first().waitFor();
  await settle(page);
  await page.getByRole('checkbox', { name: 'Select every record of this page' }).check();
  await page.getByRole('button', { name: 'Select all 40 orders' }).click();
}

/**
 * Opens a record's Activity tab until it lists an update: the agent sends its activity logs in
 * batches, about a second apart.
 */
export async function waitForUpdateActivity(page: Page, recordUrl: string): Promise<void> {
  const activity = page
    .locator('[data-testid="activity-row"]')
    .filter({ hasText: 'update' })
    .first();
  for (let attempt = 0; attempt < 15 && !(await activity.count()); attempt += 1) {
    await openRecordActivity(page, recordUrl);
    if (!(await activity.count())) await page.waitForTimeout(1000);
  }
  await activity.waitFor();
}

/** Opens a record's History tab and reads its latest change of `field` ("was → now"). */
export async function historyChangeOf(
  page: Page,
  recordUrl: string,
  field: string,
): Promise<string> {
  await page.goto(`${recordUrl}?tab=history`);
  const change = page
    .getByRole('table', { name: 'History' })
    .locator(`[data-testid="history-change"][data-field="${field}"]`)
    .first();
  await change.waitFor();
  return (await change.textContent()) ?? '';
}

/** Opens "Edit `count`", picks the status field and `status`, and asks for the preview. */
async function previewStatus(page: Page, shot: Shot, count: number, status: string, name: string) {
  await page.getByRole('button', { name: `Edit ${count}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${count} records` });
  await dialog.getByRole('textbox', { name: 'Fields to change' }).click();
  await page.getByRole('option', { name: 'Status', exact: true }).click();
  await page.keyboard.press('Escape');
  await pick(page, 'Status', status);
  await shot(page, name);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByText(`${count} records will change.`).waitFor();
  return dialog;
}

export async function runBulkEditTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  who: 'admin' | 'support',
  shot: Shot,
  /** The bulk edit by one PUT per record only: what every agent runs. */
  options: { core?: boolean } = {},
): Promise<void> {
  if (options.core) {
    if (who === 'admin') await runFallbackTest(suite, fixture, p, shot);
    return;
  }
  // The reference agent has no bulk route: the Console falls back to one PUT per record, which
  // the checks below do not follow (the Canopy agent's history and activity are what they read).
  if (fixture.agentKind !== 'canopy') return;
  if (who === 'support') {
    await suite.test(
      '(support) bulk edit: offered with the edit right, previews the count of its view',
      async () => {
        await openCollection(p, 'Customers');
        await settle(p);
        await p.getByRole('checkbox', { name: 'Select every record of this page' }).check();
        const offer = p.getByRole('button', { name: /^Select all [\d,]+ customers$/ });
        const total = /([\d,]+)/.exec((await offer.textContent()) ?? '')?.[1];
        await offer.click();
        await p.getByRole('button', { name: `Edit ${total}` }).click();
        const dialog = p.getByRole('dialog', { name: `Edit ${total} records` });
        await dialog.getByRole('textbox', { name: 'Fields to change' }).click();
        await p.getByRole('option', { name: 'Last name', exact: true }).click();
        await dialog.getByRole('textbox', { name: 'Last name' }).fill('Preview only');
        await dialog.getByRole('button', { name: 'Preview' }).click();
        const preview = dialog.getByTestId('bulk-edit-preview');
        await preview.getByText(/will change/).waitFor();
        const text = (await preview.textContent()) ?? '';
        expect(text === `${total} records will change.`, `the view's count: ${text} (${total})`);
        await shot(p, 'bulk-edit-preview-support');
        await p.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await p.getByRole('button', { name: 'Clear selection' }).click();
      },
    );
    await suite.test(
      '(support) bulk edit: not offered once the role loses the edit right',
      async () => {
        type Rights = { collections?: Record<string, Record<string, unknown>> };
        const { roles } = await fixture.manage<{ roles: { name: string; rights: Rights }[] }>(
          'GET',
          '/v1/project/Shop',
        );
        const rights = roles.find((role) => role.name === 'Support')!.rights;
        const collections = rights.collections ?? {};
        // With the right, one selected order offers its bulk edit.
        await openCollection(p, 'Orders');
        await settle(p);
        await rows(p).first().locator('input[type="checkbox"]').check();
        await p.getByRole('button', { name: 'Edit 1', exact: true }).waitFor();
        await fixture.manage('PATCH', '/v1/project/Shop/roles/Support', {
          rights: {
            ...rights,
            collections: { ...collections, orders: { ...collections.orders, editEnabled: false } },
          },
        });
        try {
          const edit = p.getByRole('button', { name: /^Edit \d/ });
          // The console reads the rights when it loads (the change reaches it within a second).
          for (let attempt = 0; attempt < 10; attempt += 1) {
            await p.reload();
            await openCollection(p, 'Orders');
            await settle(p);
            await rows(p).first().locator('input[type="checkbox"]').check();
            if (!(await edit.count())) break;
            await p.waitForTimeout(1000);
          }
          expect(!(await edit.count()), 'no bulk edit without the edit right');
          await shot(p, 'bulk-edit-no-right-support');
        } finally {
          await fixture.manage('PATCH', '/v1/project/Shop/roles/Support', { rights });
        }
      },
    );
    return;
  }

  await suite.test('(admin) bulk edit: sets the status of every order of a view', async () => {
    const before = await statusesOnAgent(p, fixture);
    expect(before.size === 40, `40 orders in the range (${before.size})`);
    try {
      await openCollection(p, 'Orders');
      const ordersUrl = p.url().split('?')[0]!;
      await selectRange(p, ordersUrl);
      const excluded = (await rows(p).nth(0).getAttribute('data-record-id'))!;
      await rows(p).nth(0).locator('input[type="checkbox"]').uncheck();
      await p.getByText('All 40 orders are selected (1 excluded).').waitFor();
      // A status the excluded order does not have: it must keep its own.
      const status = STATUSES.find((candidate) => candidate !== before.get(excluded))!;

      const dialog = await previewStatus(p, shot, 39, status, 'bulk-edit-fields');
      expect(
        await dialog.getByText(`Status → ${status}`).count(),
        'the preview says what is written',
      );
      await shot(p, 'bulk-edit-preview');
      await dialog.getByRole('button', { name: 'Edit 39 records' }).click();
      await p.getByText('39 records updated.').waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect(!(await p.getByTestId('select-all-banner').count()), 'the selection is cleared');
      await settle(p);
      const shown = await rows(p)
        .locator('td')
        .filter({ hasText: new RegExp(`^${status}$`) })
        .count();
      expect(shown >= 14, `the list shows the new status after a refresh (${shown} on the page)`);
      await shot(p, 'bulk-edit-done');

      const after = await statusesOnAgent(p, fixture);
      const wrong = [...after].filter(([id, value]) =>
        id === excluded ? value !== before.get(id) : value !== status,
      );
      expect(wrong.length === 0, `every selected order changed, the excluded one not: ${wrong}`);

      // A changed order whose status was another: its Activity and History say so.
      const [changed, was] = [...before].find(
        ([id, value]) => id !== excluded && value !== status,
      )!;
      const recordUrl = `${ordersUrl}/${changed}`;
      await waitForUpdateActivity(p, recordUrl);
      await shot(p, 'bulk-edit-activity');
      const text = await historyChangeOf(p, recordUrl, 'status');
      expect(text.includes(`${was} → ${status}`), `the history shows the change: ${text}`);
      await shot(p, 'bulk-edit-history');

      // The bulk edit was one request: History reverts all of it in one step (issue 33).
      const group = p
        .locator('[data-testid="history-group"]')
        .filter({ has: p.getByRole('button', { name: 'Revert the whole request…' }) })
        .first();
      await group.getByRole('button', { name: 'Revert the whole request…' }).click();
      const revert = p.getByRole('dialog');
      await revert.getByTestId('revert-summary').waitFor();
      const moved = [...before].filter(([id, value]) => id !== excluded && value !== status);
      const previewed = await revert.locator('[data-testid="revert-change"]').count();
      expect(
        previewed === moved.length,
        `the preview lists the ${moved.length} orders whose status changed (${previewed})`,
      );
      await shot(p, 'bulk-edit-revert-preview');
      await revert.getByRole('button', { name: /^Revert \d+ fields?$/ }).click();
      await revert
        .getByTestId('revert-results')
        .getByText(`${moved.length} records went back`)
        .waitFor();
      await shot(p, 'bulk-edit-reverted');
      await revert.getByRole('button', { name: 'Close' }).click();
      const reverted = await statusesOnAgent(p, fixture);
      const notBack = [...before].filter(([id, value]) => reverted.get(id) !== value);
      expect(notBack.length === 0, `every order has its status of before again: ${notBack}`);
    } finally {
      await restore(p, fixture, before);
    }
    const back = await statusesOnAgent(p, fixture);
    expect(
      [...before].every(([id, value]) => back.get(id) === value),
      'the statuses are restored',
    );
  });

  await runFallbackTest(suite, fixture, p, shot);
}

/** The bulk edit of an agent without the bulk route (emulated on Canopy's, real on the reference). */
async function runFallbackTest(suite: Suite, fixture: Fixture, p: Page, shot: Shot) {
  await suite.test(
    '(admin) bulk edit: without the bulk route, one PUT per record with progress and failures',
    async () => {
      const before = await statusesOnAgent(p, fixture);
      // An agent that does not advertise the route (the reference agent does not; Canopy's is
      // made not to here), and one record whose update is refused.
      const refused = String(FIRST + 2);
      await p.route('**/forest/_internal/capabilities*', async (route) => {
        const answer = await route.fetch();
        const body = (await answer.json()) as { agentCapabilities: Record<string, unknown> };
        delete body.agentCapabilities.canUseBulkUpdate;
        await route.fulfill({ response: answer, json: body });
      });
      let puts = 0;
      await p.route('**/forest/orders/*', async (route) => {
        if (route.request().method() !== 'PUT') return route.fallback();
        puts += 1;
        // Slowed, so that the progress is seen.
        await new Promise((resolve) => setTimeout(resolve, 150));
        if (!new URL(route.request().url()).pathname.endsWith(`/${refused}`)) {
          return route.fallback();
        }
        return route.fulfill({
          status: 403,
          json: { errors: [{ name: 'ForbiddenError', detail: 'Not this one', status: 403 }] },
        });
      });
      try {
        await selectRange(
          p,
          p
            .url()
            .split('?')[0]!
            .replace(/\/data\/.*$/, '/data/orders'),
        );
        const dialog = await previewStatus(p, shot, 40, 'shipped', 'bulk-edit-fallback-fields');
        await dialog.getByRole('button', { name: 'Edit 40 records' }).click();
        await dialog.getByText(/^[1-9]\d* of 40 records$/).waitFor();
        await shot(p, 'bulk-edit-progress');
        const summary = p.getByText(`1 record was not changed: #${refused} (Not this one).`);
        await summary.waitFor();
        await shot(p, 'bulk-edit-fallback');
        expect(puts === 40, `one PUT per record (${puts})`);
        expect(await p.getByText('39 records updated').count(), 'the count of those updated');
        const after = await statusesOnAgent(p, fixture);
        const wrong = [...after].filter(([id, value]) =>
          id === refused ? value !== before.get(id) : value !== 'shipped',
        );
        expect(wrong.length === 0, `all but the refused one changed: ${wrong}`);
      } finally {
        await p.unroute('**/forest/orders/*');
        await p.unroute('**/forest/_internal/capabilities*');
        await restore(p, fixture, before);
        // The next checks see the agent's own capabilities again.
        await p.reload();
      }
      const back = await statusesOnAgent(p, fixture);
      expect(
        [...before].every(([id, value]) => back.get(id) === value),
        'the statuses are restored',
      );
    },
  );
}
