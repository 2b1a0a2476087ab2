/**
 * The `has-many-count` display widget (issue 32): in layout mode the admin shows Europe's orders'
 * `payments` relation as a column (offered only that widget) and publishes; the Support member of
 * Europe sees in it each order's number of payments, the agent's own count, linked to the
 * order's payments tab, and the list's request does not ask for the relation. Europe's layout is
 * put back.
 */
import type { Page } from 'playwright-core';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { asSupport, closeLayout, EUROPE, openLayout } from './layouts';
import { openCollection, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;
type Published = { published: { layout: object } | null };

/** Publishes `layout` for the team at `team` (a management path) with the admin's token. */
async function putBack(fixture: Fixture, team: string, layout: object) {
  await fixture.manage('PUT', `${team}/layout/draft`, { layout });
  await fixture.manage('POST', `${team}/layout/publish`);
}

/** The agent's count of an order's payments, with the session of the user signed in on `page`. */
async function agentCount(page: Page, fixture: Fixture, id: string): Promise<unknown> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}') as { token?: string })
        .token,
  );
  const answer = await fetch(
    `${fixture.agentUrl}/forest/orders/${encodeURIComponent(id)}/relationships/payments/count?timezone=UTC`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  return ((await answer.json()) as { count?: unknown }).count;
}

export async function runHasManyCountTests(
  suite: Suite,
  fixture: Fixture,
  admin: Page,
  shot: Shot,
): Promise<void> {
  const before = (await fixture.manage<Published>('GET', `${EUROPE}/layout`)).published?.layout;
  try {
    const set = await suite.test(
      '(has-many count) the admin shows Europe’s orders’ payments as a count column',
      async () => {
        await openCollection(admin, 'Orders');
        const panel = await openLayout(admin, 'Europe');
        const row = panel.locator('[data-layout-column="payments"]');
        await row.getByRole('checkbox').check();
        const widget = row.getByRole('textbox', { name: 'Widget of Payments', exact: true });
        expect(
          (await widget.inputValue()) === 'Has many count',
          `payments is shown as its count: ${await widget.inputValue()}`,
        );
        await widget.click();
        const options = await admin.getByRole('option').allTextContents();
        expect(
          JSON.stringify(options) === '["Has many count"]',
          `a to-many relation is offered its count only: ${JSON.stringify(options)}`,
        );
        await widget.press('Escape');
        // The preview, in the admin's own Console.
        await admin.locator('td [data-has-many-count="payments"]').first().waitFor();
        await shot(admin, 'has-many-count-editor');
        await panel.getByRole('button', { name: 'Publish', exact: true }).click();
        await panel.getByText(/^Published: everyone in Europe/).waitFor();
        await closeLayout(admin);
        const europe = await fixture.manage<{
          published: {
            layout: {
              collections?: Record<
                string,
                {
                  table?: { columns?: { field: string }[] };
                  fields?: Record<string, { display?: { type: string } }>;
                }
              >;
            };
          };
        }>('GET', `${EUROPE}/layout`);
        const orders = europe.published.layout.collections?.orders;
        expect(
          Boolean(orders?.table?.columns?.some((column) => column.field === 'payments')) &&
            orders?.fields?.payments?.display?.type === 'has-many-count',
          `Europe's orders show payments as a count: ${JSON.stringify(orders)}`,
        );
      },
    );
    if (!set) return;

    await suite.test(
      '(has-many count) Support of Europe sees each order’s number of payments',
      async () => {
        await asSupport(fixture, async (support) => {
          const lists: string[] = [];
          support.on('request', (request) => {
            const url = decodeURIComponent(request.url());
            if (/\/forest\/orders\?/.test(url)) lists.push(url);
          });
          await openCollection(support, 'Orders');
          await settle(support);
          const heads = await support.locator('thead th').allTextContents();
          expect(
            heads.some((head) => head.trim() === 'Payments'),
            `the list has a Payments column: ${JSON.stringify(heads)}`,
          );
          const first = support.locator('tbody tr[data-record-id]').first();
          const id = (await first.getAttribute('data-record-id'))!;
          const cell = first.locator('a[data-has-many-count="payments"]');
          await cell.waitFor();
          const shown = (await cell.textContent())?.trim();
          const expected = await agentCount(support, fixture, id);
          expect(
            typeof expected === 'number' && shown === String(expected),
            `order ${id} shows ${shown} payments, the agent counts ${String(expected)}`,
          );
          const href = (await cell.getAttribute('href')) ?? '';
          expect(
            href.endsWith(`/orders/${id}?tab=payments`),
            `the count links to the payments tab: ${href}`,
          );
          const fields = lists.map((url) => /fields\[orders\]=([^&]*)/.exec(url)?.[1] ?? '');
          expect(
            fields.length > 0 && fields.every((list) => !list.split(',').includes('payments')),
            `the list does not project payments: ${JSON.stringify(fields)}`,
          );
          await cell.scrollIntoViewIfNeeded();
          await shot(support, 'has-many-count-support');
          await cell.click();
          await support.waitForURL(/tab=payments/);
          await support.getByRole('tab', { name: /Payments/, selected: true }).waitFor();
          await shot(support, 'has-many-count-payments-tab');
        });
      },
    );
  } finally {
    await suite.test('(has-many count) Europe’s layout is put back', async () => {
      await putBack(fixture, EUROPE, before ?? {});
      const now = await fixture.manage<Published>('GET', `${EUROPE}/layout`);
      expect(
        JSON.stringify(now.published?.layout) === JSON.stringify(before ?? {}),
        'Europe has its layout back',
      );
      await admin.reload();
      await admin.locator('tbody tr[data-record-id]').first().waitFor();
    });
  }
}
