/**
 * Browser check of a record's History tab: the demo's agent runs with `auditTrail`, so the edits
 * the suite made to the order it opened (status → shipped, then → delivered after the expired
 * session) are in its history, with who made them and the values before and after. Then the
 * filters (a person, a field), the record as it was before a change (time travel, with the diff
 * against now), and a revert of what one request wrote on three orders (writes sharing an
 * `x-forest-correlation-id`, sent by the test), one of them changed since: a conflict kept.
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

  await suite.test('filters the History by a person and a field', async () => {
    const table = p.getByRole('table', { name: 'History' });
    const filters = p.getByTestId('history-filters');
    await filters.getByRole('textbox', { name: 'Fields' }).click();
    await p.getByRole('option', { name: 'Status', exact: true }).click();
    await p.keyboard.press('Escape');
    await filters.getByRole('textbox', { name: 'People' }).click();
    const person = p.getByRole('option').first();
    const name = ((await person.textContent()) ?? '').trim();
    await person.click();
    await p.keyboard.press('Escape');
    await p.waitForURL(/tab=history/);
    await table.locator('[data-testid="history-row"]').first().waitFor();
    // Every row shown changed the status, and was made by the person chosen.
    await p.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="history-row"]')].every((row) =>
          row.querySelector('[data-testid="history-change"][data-field="status"]'),
        ),
      undefined,
      { timeout: 10_000 },
    );
    const who = await table
      .locator('[data-testid="history-row"] td:nth-child(2)')
      .allTextContents();
    expect(name !== '' && who.length > 0, `rows are shown for ${name}`);
    expect(
      who.every((cell) => cell === name),
      `every row is by ${name} (${[...new Set(who)].join(', ')})`,
    );
    await shot(p, 'record-history-filtered');
    // A field nothing changed: no entry.
    await filters.getByRole('textbox', { name: 'Fields' }).click();
    await p.getByRole('option', { name: 'Status', exact: true }).click();
    await p.getByRole('option', { name: 'Shipping address', exact: true }).click();
    await p.keyboard.press('Escape');
    await p.getByTestId('logs-empty').waitFor();
  });

  await suite.test(
    'shows the record as it was before a change, with the diff against now',
    async () => {
      await p.goto(recordUrl.split('?')[0]! + '?tab=history');
      const table = p.getByRole('table', { name: 'History' });
      const change = table
        .locator('[data-testid="history-change"][data-field="status"]')
        .filter({ hasText: '→ delivered' })
        .first();
      await change.waitFor();
      const before = /Status: (\w+) →/.exec((await change.textContent()) ?? '')?.[1];
      const row = change.locator('xpath=ancestor::tr[@data-testid="history-row"]');
      await row.getByRole('button', { name: 'See before' }).click();
      const status = p.locator('[data-testid="time-travel-field"][data-field="status"]');
      await status.waitFor();
      const text = (await status.textContent()) ?? '';
      expect(
        (await status.getAttribute('data-changed')) === 'true',
        'the status is highlighted as changed since',
      );
      expect(text.includes(`${before} → delivered`), `then → now (${text})`);
      expect(
        (await p.locator('[data-testid="time-travel-field"][data-changed]').count()) >= 1,
        'at least one field differs',
      );
      await shot(p, 'record-time-travel');
    },
  );

  await suite.test(
    'reverts what one request wrote on three orders, keeping a later change',
    async () => {
      const token = await p.evaluate(
        () =>
          (
            JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}') as {
              token?: string;
            }
          ).token,
      );
      expect(token, 'the page holds an agent session token');
      const agent = async (method: string, path: string, body?: unknown, headers = {}) => {
        const response = await fetch(`${fixture.agentUrl}/forest${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
        return response.status === 204 ? null : response.json();
      };
      const shippedOn = async (id: string) =>
        (
          (await agent('GET', `/orders/${id}?timezone=UTC`)) as {
            data: { attributes: { shipped_on: string | null } };
          }
        ).data.attributes.shipped_on;
      const put = (id: string, value: string | null, headers = {}) =>
        agent(
          'PUT',
          `/orders/${id}?timezone=UTC`,
          { data: { type: 'orders', id, attributes: { shipped_on: value } } },
          headers,
        );
      const here = /\/data\/orders\/([^/?]+)/.exec(recordUrl)![1]!;
      const listed = (await agent(
        'GET',
        '/orders?timezone=UTC&page[size]=5&fields[orders]=id',
      )) as {
        data: { id: string }[];
      };
      const ids = [here, ...listed.data.map((row) => row.id).filter((id) => id !== here)].slice(
        0,
        3,
      );
      const original = new Map<string, string | null>();
      for (const id of ids) original.set(id, await shippedOn(id));
      const correlation = `browser-suite-${Date.now()}`;
      try {
        // One "request" of three writes, then a later change of the third order.
        for (const [index, id] of ids.entries()) {
          await put(id, `2020-01-0${index + 1}`, { 'x-forest-correlation-id': correlation });
        }
        await put(ids[2]!, '2021-06-30');

        await p.goto(recordUrl.split('?')[0]! + '?tab=history');
        const group = p.locator('[data-testid="history-group"]').first();
        await group.filter({ hasText: '2 other records' }).waitFor();
        await group.getByRole('button', { name: 'Show other records' }).click();
        await shot(p, 'record-history-group');
        await group.getByRole('button', { name: 'Revert the whole request…' }).click();
        const dialog = p.getByRole('dialog');
        await dialog.getByTestId('revert-summary').waitFor();
        const changes = dialog.locator('[data-testid="revert-change"]');
        expect((await changes.count()) === 3, `3 changes previewed (${await changes.count()})`);
        const conflict = dialog.locator('[data-testid="revert-change"][data-conflict]');
        expect((await conflict.count()) === 1, 'one conflict: the order changed since');
        expect(
          ((await conflict.textContent()) ?? '').includes(`#${ids[2]}`),
          'the conflict is on the order changed later',
        );
        await shot(p, 'revert-preview');
        await dialog.getByRole('button', { name: 'Revert 2 fields' }).click();
        await dialog.getByTestId('revert-results').getByText('2 records went back').waitFor();
        await shot(p, 'revert-done');
        await dialog.getByRole('button', { name: 'Close' }).click();

        expect((await shippedOn(ids[0]!)) === original.get(ids[0]!), 'the first order is back');
        expect((await shippedOn(ids[1]!)) === original.get(ids[1]!), 'the second order is back');
        expect((await shippedOn(ids[2]!)) === '2021-06-30', 'the later change was kept');
        // The revert's writes are in the history, marked as a revert.
        await p
          .getByRole('table', { name: 'History' })
          .getByText('Revert', { exact: true })
          .first()
          .waitFor();
      } finally {
        for (const [id, value] of original) await put(id, value);
      }
    },
  );
}
