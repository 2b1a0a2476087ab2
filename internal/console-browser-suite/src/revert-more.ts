/**
 * More of issue 33's revert and stale-write checks, in Chromium. (a) The admin imports two
 * reviews from a CSV file (one correlation of kind `import`), opens one of them, and reverts
 * the whole import from its History: the preview lists both records to delete, and after the
 * revert neither exists on the agent. (b) Two people side by side: Bob starts editing a
 * customer's first name in the list, Ada changes that customer meanwhile, Bob saves: the cell
 * says the value changed since, with Ada's value, and nothing is overwritten until Bob chooses
 * to keep his. Canopy's agent only (history and entity tags). The data is restored.
 */
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { AgentClient, leaf } from '@canopy/console';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, signIn } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

/** The agent, with the session of the user signed in on `page`. */
async function agentClient(page: Page, fixture: Fixture): Promise<AgentClient> {
  const token = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}').token as string,
  );
  return new AgentClient({ baseUrl: fixture.agentUrl, timezone: 'UTC', getToken: () => token });
}

/**
 * A text to find a test's records by, unique to the run, in letters only (a long number in a
 * search would also be read as an id).
 */
function letterMarker(prefix: string): string {
  return `${prefix} ${Date.now()
    .toString(36)
    .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
}

/** The address of a record's page, from a page of the same environment. */
function recordPage(page: Page, collection: string, id: string): string {
  return page
    .url()
    .split('?')[0]!
    .replace(/\/data\/.*$/, `/data/${collection}/${encodeURIComponent(id)}`);
}

export async function runRevertMoreTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  if (fixture.agentKind !== 'canopy') return;

  await suite.test(
    'revert: an import of two reviews is reverted from History in one step, both deleted',
    async () => {
      const marker = letterMarker('Revert import');
      const mine = leaf('comment', 'starts_with', marker);
      const client = await agentClient(p, fixture);
      try {
        await openCollection(p, 'Reviews');
        await p.getByRole('link', { name: 'Import CSV' }).click();
        await p.getByRole('heading', { name: 'Import reviews from a CSV file' }).waitFor();
        const rows = [1, 2].map((n) => ({
          Product: String(n),
          Customer: String(n),
          Rating: '4',
          Comment: `${marker} #${n}`,
          'Created at': '2025-01-01 10:00',
        }));
        const file = { name: 'two-reviews.csv', mimeType: 'text/csv' };
        await p
          .locator('input[type="file"]')
          .setInputFiles({ ...file, buffer: Buffer.from(Papa.unparse(rows)) });
        await p.getByRole('button', { name: 'Check 2 records' }).click();
        await p.getByRole('button', { name: 'Import 2 reviews' }).click();
        await p.getByTestId('import-summary').waitFor();
        const imported = await client.list('reviews', { fields: ['id', 'comment'], filters: mine });
        expect(imported.length === 2, `two reviews imported (${imported.length})`);
        const [first, second] = imported.map((record) => record.id).sort();

        // The History of one of them shows the import as one change across both records.
        await p.goto(recordPage(p, 'reviews', first!));
        await p.getByRole('tab', { name: 'History' }).click();
        const group = p
          .locator('[data-testid="history-group"]')
          .filter({ has: p.getByRole('button', { name: 'Revert the whole request…' }) })
          .first();
        await group.waitFor();
        const said = (await group.textContent()) ?? '';
        expect(/One import: 2 entries, 1 other record/.test(said), `the group: ${said}`);
        await shot(p, 'revert-import-history');

        await group.getByRole('button', { name: 'Revert the whole request…' }).click();
        const dialog = p.getByRole('dialog');
        await dialog.getByTestId('revert-summary').waitFor();
        const summary = (await dialog.getByTestId('revert-summary').textContent()) ?? '';
        expect(
          summary.includes('2 records created by this change will be deleted'),
          `the preview: ${summary}`,
        );
        const removals = dialog.locator('[data-testid="revert-removal"]');
        expect((await removals.count()) === 2, 'both records are listed to delete');
        const listed = (await removals.allTextContents()).join(' | ');
        expect(
          listed.includes(`#${first}`) && listed.includes(`#${second}`),
          `by their ids: ${listed}`,
        );
        await p.waitForTimeout(300); // The dialog fades in.
        await shot(p, 'revert-import-preview');

        const deletes: string[] = [];
        const onRequest = (request: {
          method(): string;
          url(): string;
          headers(): Record<string, string>;
        }) => {
          if (request.method() === 'DELETE' && /\/forest\/reviews\//.test(request.url())) {
            deletes.push(
              `${request.headers()['x-canopy-correlation-kind']}:${request.headers()['x-forest-correlation-id']}`,
            );
          }
        };
        p.on('request', onRequest);
        try {
          await dialog.getByRole('button', { name: 'Revert: delete 2 records' }).click();
          await dialog.getByTestId('revert-results').getByText('2 records deleted.').waitFor();
        } finally {
          p.off('request', onRequest);
        }
        expect(
          deletes.length === 2 &&
            deletes.every((sent) => sent.startsWith('revert:')) &&
            deletes[0] === deletes[1],
          `two deletes under one revert correlation: ${deletes.join(', ')}`,
        );
        await shot(p, 'revert-import-done');
        await dialog.getByRole('button', { name: 'Close' }).click();
        const left = await client.list('reviews', { fields: ['id'], filters: mine });
        expect(left.length === 0, `the imported reviews are gone (${left.length} left)`);
        // The list no longer shows them.
        await openCollection(p, 'Reviews');
        await p.getByRole('textbox', { name: 'Search reviews' }).fill(marker);
        await p.getByText('No reviews match this view').waitFor({ timeout: 10_000 });
        await shot(p, 'revert-import-list');
      } finally {
        await client.remove('reviews', { ids: [], allRecords: true, filters: mine });
      }
    },
  );

  await suite.test(
    'revert: a deleted review’s page keeps its History, and its deletion is reverted from there',
    async () => {
      const marker = letterMarker('Revert delete');
      const mine = leaf('comment', 'starts_with', marker);
      const client = await agentClient(p, fixture);
      try {
        const created = await client.create(
          'reviews',
          { comment: `${marker} (to delete)`, rating: 3, created_at: '2025-01-01T10:00:00.000Z' },
          { product: { type: 'products', id: '1' }, customer: { type: 'customers', id: '1' } },
        );
        const id = created.id;
        await client.remove('reviews', { ids: [id] });

        await p.goto(recordPage(p, 'reviews', id));
        await p.getByRole('alert').getByText('Record not found').waitFor();
        const deletion = p.locator('tr', { hasText: /delete/i }).filter({
          has: p.getByRole('button', { name: 'Revert…' }),
        });
        await deletion.first().waitFor();
        await shot(p, 'revert-deleted-history');
        await deletion.first().getByRole('button', { name: 'Revert…' }).click();
        const dialog = p.getByRole('dialog');
        await dialog.getByTestId('revert-summary').waitFor();
        const summary = (await dialog.getByTestId('revert-summary').textContent()) ?? '';
        expect(summary.includes('will be created again'), `the preview: ${summary}`);
        await p.waitForTimeout(300); // The dialog fades in.
        await shot(p, 'revert-deleted-preview');
        await dialog.getByRole('button', { name: /^Revert: create 1 record again/ }).click();
        await dialog
          .getByTestId('revert-results')
          .getByText(/1 record created again/)
          .waitFor();
        const back = await client.list('reviews', { fields: ['id', 'comment'], filters: mine });
        expect(
          back.length === 1 && back[0]!.values.comment === `${marker} (to delete)`,
          `the review is back: ${JSON.stringify(back.map((record) => record.values))}`,
        );
        await shot(p, 'revert-deleted-done');
        await dialog.getByRole('button', { name: 'Close' }).click();
      } finally {
        await client.remove('reviews', { ids: [], allRecords: true, filters: mine });
      }
    },
  );

  const adaBrowser = await openBrowser();
  const bobBrowser = await openBrowser();
  adaBrowser.context.setDefaultTimeout(60_000);
  bobBrowser.context.setDefaultTimeout(60_000);
  try {
    await suite.test(
      'inline edit: Bob saves a cell Ada changed since he started; the cell shows the conflict, nothing is overwritten',
      async () => {
        const ada = (await signIn(adaBrowser.context, fixture, fixture.admin)).page;
        const bob = (await signIn(bobBrowser.context, fixture, fixture.support)).page;
        await openCollection(bob, 'Customers');
        const row = bob.locator('tbody tr[data-record-id]').first();
        const id = (await row.getAttribute('data-record-id'))!;
        const adaClient = await agentClient(ada, fixture);
        const original = (await adaClient.get('customers', id))!.values.first_name;
        const theirs = `Ada${Date.now() % 100000}`;
        const mineValue = `Bob${Date.now() % 100000}`;
        try {
          const cell = row.locator('td[data-editable-cell="first_name"]');
          // Bob starts editing: the Console reads the record's tag.
          const tagRead = bob.waitForResponse(
            (response) =>
              response.request().method() === 'GET' &&
              new URL(response.url()).pathname.endsWith(`/forest/customers/${id}`),
          );
          await cell.dblclick();
          const input = bob.getByRole('textbox', { name: /^First name \(Enter saves/ });
          await input.waitFor();
          expect((await tagRead).headers().etag?.startsWith('"'), 'the tag came with the read');

          // Ada changes that customer in her browser.
          await ada.goto(recordPage(ada, 'customers', id));
          await ada.getByRole('link', { name: 'Edit' }).first().click();
          await ada.getByRole('heading', { name: /^Edit/ }).waitFor();
          const field = ada.getByRole('textbox', { name: 'First name', exact: true });
          await field.fill(theirs);
          await ada.getByRole('button', { name: 'Save changes' }).click();
          await ada.waitForURL(/\/data\/customers\/[^/]+$/);
          expect(
            (await adaClient.get('customers', id))!.values.first_name === theirs,
            'Ada’s change is on the agent',
          );

          // Bob saves his value over what he started from.
          await input.fill(mineValue);
          const refused = bob.waitForResponse(
            (response) =>
              response.request().method() === 'PUT' &&
              new URL(response.url()).pathname.endsWith(`/forest/customers/${id}`),
          );
          await input.press('Enter');
          const answer = await refused;
          expect(answer.status() === 412, `the agent refused the stale save (${answer.status()})`);
          expect(
            (await answer.request().headerValue('if-match'))?.startsWith('"'),
            'the save carried the tag of the edit start',
          );
          const conflict = bob.getByTestId('cell-conflict');
          await conflict.waitFor();
          const text = (await conflict.textContent()) ?? '';
          expect(text.includes(`now “${theirs}”`), `the cell shows Ada’s value: ${text}`);
          expect((await input.inputValue()) === mineValue, 'Bob’s typed value is kept');
          expect(
            (await adaClient.get('customers', id))!.values.first_name === theirs,
            'nothing was overwritten',
          );
          await shot(bob, 'inline-edit-conflict');

          // Bob chooses to keep his: saved over the new tag.
          const again = bob.waitForResponse(
            (response) =>
              response.request().method() === 'PUT' &&
              new URL(response.url()).pathname.endsWith(`/forest/customers/${id}`),
          );
          await bob.getByRole('button', { name: 'Keep mine' }).click();
          expect((await again).status() === 200, 'Bob’s choice was saved');
          await cell.getByText(mineValue).waitFor();
          expect(
            (await adaClient.get('customers', id))!.values.first_name === mineValue,
            'Bob’s value is on the agent once he chose it',
          );
          await shot(bob, 'inline-edit-kept');
        } finally {
          await adaClient.update('customers', id, { first_name: original });
        }
      },
    );
  } finally {
    await adaBrowser.close();
    await bobBrowser.close();
  }
}
