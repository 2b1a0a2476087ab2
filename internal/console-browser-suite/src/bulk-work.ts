/**
 * Bulk work in the collection list (issue 32): select every record of a filtered view across
 * pages (with exclusions) and delete them with the count in the confirmation; edit a cell in
 * place (saved, or the agent's validation error on the cell); duplicate a record. In both
 * personas: the support member may not delete orders, so the list offers no delete there.
 * Payments and reviews are what this changes (no other check counts them). The core (in place,
 * its error, duplicate) also runs against the reference agent, and puts back what it changed.
 */
import type { Page } from 'playwright-core';
import { agentCall } from './bulk-edit';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

const rows = (page: Page) => page.locator('tbody tr[data-record-id]');

/** Opens a collection, then the view `query` of it (the view lives in the address). */
async function openView(page: Page, label: string, query: string): Promise<void> {
  await openCollection(page, label);
  const url = new URL(page.url());
  await page.goto(`${url.origin}${url.pathname}?${query}`);
  await rows(page).first().waitFor();
  await settle(page);
}

/** Opens the editor of a row's cell by a double-click and returns the cell. */
async function editCell(page: Page, row: number, field: string) {
  const cell = rows(page).nth(row).locator(`td[data-editable-cell="${field}"]`);
  await cell.dblclick();
  const editor = rows(page).nth(row).locator('td.rt-editing input, td.rt-editing select');
  await editor.waitFor();
  return editor;
}

export async function runBulkWorkTests(
  suite: Suite,
  p: Page,
  who: 'admin' | 'support',
  shot: Shot,
  options: {
    /** The in-place edits and the duplicate only: what every agent runs. */
    core?: boolean;
    /** To tell the agents apart and to put back what the in-place checks changed. */
    fixture?: Fixture;
  } = {},
): Promise<void> {
  if (!options.core) await runSelectionTests(suite, p, who, shot);
  await runInPlaceTests(suite, p, who, shot, options.fixture);
}

async function runSelectionTests(
  suite: Suite,
  p: Page,
  who: 'admin' | 'support',
  shot: Shot,
): Promise<void> {
  await suite.test(
    `(${who}) bulk work: selects every record of the view across pages`,
    async () => {
      await p.setViewportSize({ width: 1280, height: 800 });
      if (who === 'support') {
        // No delete on orders for support: all of them can be selected (for an action), not deleted.
        await openCollection(p, 'Orders');
        await settle(p);
        await p.getByRole('checkbox', { name: 'Select every record of this page' }).check();
        const offer = p.getByRole('button', { name: /^Select all [\d,]+ orders$/ });
        const total = /^Select all ([\d,]+) orders$/.exec((await offer.textContent()) ?? '')?.[1];
        await offer.click();
        const banner = p.getByTestId('select-all-banner');
        expect(
          /^All [\d,]+ orders are selected\.Clear selection$/.test(
            (await banner.textContent()) ?? '',
          ),
          `the banner says all are selected: ${await banner.textContent()}`,
        );
        expect(
          !(await p.getByRole('button', { name: /^Delete/ }).count()),
          'no delete for support',
        );
        await shot(p, `bulk-select-all-${who}`);
        // A bulk action on all of them says how many it runs on (closed without running).
        await p.getByTestId('actions-menu').click();
        await p.getByRole('menuitem', { name: /^Flag for review/ }).click();
        const dialog = p.getByTestId('action-dialog');
        await dialog.waitFor();
        const title = (await p.getByRole('dialog').locator('h2').first().textContent()) ?? '';
        expect(
          title === `Flag for review · ${total} records`,
          `the count of the view in the title: ${title} (${total})`,
        );
        await shot(p, `bulk-action-all-${who}`);
        await p.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await banner.getByRole('button', { name: 'Clear selection' }).click();
        await banner.waitFor({ state: 'detached' });
        return;
      }
      // 40 payments (ids 1 to 40), 15 a page: three pages.
      await openView(
        p,
        'Payments',
        `size=15&filters=${encodeURIComponent('{"field":"id","operator":"less_than","value":41}')}`,
      );
      await p.getByRole('checkbox', { name: 'Select every record of this page' }).check();
      const banner = p.getByTestId('select-all-banner');
      expect(
        (await banner.textContent()) === 'All 15 on this page are selected.Select all 40 payments',
        `the banner offers every record: ${await banner.textContent()}`,
      );
      await shot(p, `bulk-select-page-${who}`);
      await banner.getByRole('button', { name: 'Select all 40 payments' }).click();
      // Unchecking rows while all are selected excludes them.
      const kept = [
        await rows(p).nth(0).getAttribute('data-record-id'),
        await rows(p).nth(1).getAttribute('data-record-id'),
      ];
      await rows(p).nth(0).locator('input[type="checkbox"]').uncheck();
      await rows(p).nth(1).locator('input[type="checkbox"]').uncheck();
      await p.getByText('All 40 payments are selected (2 excluded).').waitFor();
      // Still selected on the next page.
      await p.getByRole('button', { name: 'next page' }).click();
      await settle(p);
      expect(
        (await p.locator('tbody input[type="checkbox"]:checked').count()) === 15,
        'the next page is selected too',
      );
      await shot(p, `bulk-select-all-${who}`);
      await p.getByRole('button', { name: 'previous page' }).click();
      await settle(p);
      await p.getByRole('button', { name: 'Delete 38' }).click();
      const dialog = p.getByRole('dialog', { name: 'Delete records?' });
      await dialog.waitFor();
      const text = (await dialog.textContent()) ?? '';
      expect(text.includes('The 38 selected records are deleted'), `the count is stated: ${text}`);
      await shot(p, `bulk-delete-confirm-${who}`);
      await dialog.getByRole('button', { name: 'Delete 38' }).click();
      await p.getByText('38 records deleted.').waitFor();
      await p.waitForFunction(
        () => document.querySelectorAll('tbody tr[data-record-id]').length === 2,
      );
      const left = await rows(p).evaluateAll((all) =>
        all.map((row) => row.getAttribute('data-record-id')),
      );
      expect(
        JSON.stringify([...left].sort()) === JSON.stringify([...kept].sort()),
        `the excluded ones are left: ${left.join(',')} (kept ${kept.join(',')})`,
      );
      expect(!(await p.getByTestId('select-all-banner').count()), 'the selection is cleared');
    },
  );

  await suite.test(`(${who}) bulk work: a related tab offers all its records too`, async () => {
    await openCollection(p, 'Products');
    await rows(p).first().locator('td').nth(1).click();
    await p.waitForURL(/\/data\/products\/\d+$/);
    // The product's orders (through its order lines).
    await p
      .getByRole('tab', { name: /^(Orders|Order lines)$/ })
      .first()
      .click();
    await rows(p).first().waitFor();
    await settle(p);
    await p.getByRole('checkbox', { name: 'Select every record of this page' }).check();
    const offer = p.getByRole('button', { name: /^Select all [\d,]+ (orders|order lines)$/ });
    const [, total, name] = /([\d,]+) (.+)$/.exec((await offer.textContent()) ?? '') ?? [];
    await offer.click();
    await rows(p).first().locator('input[type="checkbox"]').uncheck();
    await p.getByText(`All ${total} ${name} are selected (1 excluded).`).waitFor();
    await shot(p, `bulk-related-${who}`);
    await p.getByRole('button', { name: 'Clear selection' }).click();
    await p.getByTestId('select-all-banner').waitFor({ state: 'detached' });
  });
}

async function runInPlaceTests(
  suite: Suite,
  p: Page,
  who: 'admin' | 'support',
  shot: Shot,
  fixture: Fixture | undefined,
): Promise<void> {
  await suite.test(`(${who}) bulk work: edits a cell in place and saves it`, async () => {
    await openView(p, 'Reviews', 'sort=id');
    const id = (await rows(p).first().getAttribute('data-record-id'))!;
    // The stored comment (null in some reviews), put back at the end.
    const stored = fixture
      ? await agentCall<{ data: { attributes: { comment: string | null } } }>(
          p,
          fixture,
          'GET',
          `/reviews/${id}`,
        )
      : undefined;
    const comment = `Edited in place by ${who}`;
    try {
      // The keyboard: → from the row to its first editable cell, then to the comment, Enter edits.
      await rows(p).first().focus();
      await p.keyboard.press('ArrowRight');
      let focused = await p.evaluate(() =>
        document.activeElement?.getAttribute('data-editable-cell'),
      );
      for (let step = 0; focused !== 'comment' && step < 10; step += 1) {
        await p.keyboard.press('ArrowRight');
        focused = await p.evaluate(() =>
          document.activeElement?.getAttribute('data-editable-cell'),
        );
      }
      expect(focused === 'comment', `the comment cell takes the focus: ${focused}`);
      await p.keyboard.press('Enter');
      const editor = rows(p).first().locator('td.rt-editing input');
      await editor.waitFor();
      await editor.fill(comment);
      await shot(p, `inline-edit-open-${who}`);
      await editor.press('Enter');
      await editor.waitFor({ state: 'detached' });
      const cell = rows(p).first().locator('td[data-editable-cell="comment"]');
      await p.waitForFunction(
        ([selector, text]) => document.querySelector(selector!)?.textContent === text,
        [`tbody tr[data-record-id="${id}"] td[data-editable-cell="comment"]`, comment] as const,
      );
      expect((await cell.textContent()) === comment, 'the cell shows the saved value');
      // Escape cancels: nothing sent, the value stays.
      const again = await editCell(p, 0, 'comment');
      await again.fill('not saved');
      await again.press('Escape');
      await again.waitFor({ state: 'detached' });
      expect((await cell.textContent()) === comment, 'Escape keeps the saved value');
      // The record agrees.
      await rows(p).first().locator('td').nth(1).click();
      await p.waitForURL(new RegExp(`/data/reviews/${id}$`));
      await p.getByText(comment).first().waitFor();
    } finally {
      // The review's comment of before (later checks and the other persona read the first review).
      if (fixture && stored) {
        await agentCall(p, fixture, 'PUT', `/reviews/${id}`, {
          data: { type: 'reviews', id, attributes: { comment: stored.data.attributes.comment } },
        });
      }
    }
  });

  await suite.test(
    `(${who}) bulk work: an inline edit the agent refuses shows its error on the cell`,
    async () => {
      if (who === 'support') await p.emulateMedia({ colorScheme: 'dark' });
      try {
        await openView(p, 'Customers', 'sort=id');
        const editor = await editCell(p, 0, 'email');
        const before = await editor.inputValue();
        // What the agent refuses differs. The demo's Canopy agent validates the e-mail itself
        // (a customization: "must contain @"); the reference agent has no such rule, and its
        // refusal comes from the database: the second customer's e-mail breaks the column's
        // UNIQUE constraint, which its SQL data source answers with a 400 ValidationError.
        const reference = fixture?.agentKind === 'reference';
        const typed = reference
          ? ((await rows(p).nth(1).locator('td[data-editable-cell="email"]').textContent()) ?? '')
          : 'no-at-sign';
        expect(typed !== '' && typed !== before, `a value to refuse: ${typed}`);
        await editor.fill(typed);
        await editor.press('Enter');
        const error = rows(p).first().getByTestId('cell-error');
        await error.waitFor();
        const words = (await error.textContent()) ?? '';
        expect(
          reference
            ? /violates a unicity constraint/.test(words)
            : words === 'Email must contain “@”.',
          `the agent's error in words: ${words}`,
        );
        expect((await editor.inputValue()) === typed, 'the typed value is kept');
        expect((await editor.getAttribute('aria-invalid')) === 'true', 'the input is invalid');
        await shot(p, `inline-edit-error-${who}`);
        await editor.press('Escape');
        await editor.waitFor({ state: 'detached' });
        const cell = rows(p).first().locator('td[data-editable-cell="email"]');
        expect((await cell.textContent())?.includes(before), 'the stored e-mail is unchanged');
      } finally {
        if (who === 'support') await p.emulateMedia({ colorScheme: null });
      }
    },
  );

  await suite.test(`(${who}) bulk work: duplicates a record into a prefilled form`, async () => {
    await openView(p, 'Reviews', 'sort=-id');
    await rows(p).first().locator('td').nth(1).click();
    await p.waitForURL(/\/data\/reviews\/\d+$/);
    const source = p.url().split('/').pop()!;
    await p.getByRole('link', { name: 'Duplicate' }).click();
    await p.getByRole('heading', { name: `New review (copy of #${source})` }).waitFor();
    const comment = p.getByRole('textbox', { name: /comment/i });
    const copied = await comment.inputValue();
    expect(await p.getByRole('textbox', { name: /rating/i }).count(), 'the rating is there');
    await comment.fill(`${copied} (copy by ${who})`);
    await shot(p, `duplicate-form-${who}`);
    await p.getByRole('button', { name: 'Create' }).click();
    await p.waitForURL(
      (url) => /\/data\/reviews\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${source}`),
    );
    await p.getByText(`(copy by ${who})`).first().waitFor();
    // The copy goes: the data is as it was.
    const copy = p.url().split('/').pop()!;
    if (fixture) await agentCall(p, fixture, 'DELETE', `/reviews/${copy}`);
  });
}
