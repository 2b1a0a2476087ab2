/**
 * A day at the collection list, by keyboard and mouse, in each persona: search as you type, a
 * nested filter that survives Escape, a view (page size, sort) that survives a record, the
 * sidebar and a reload, one Tab stop for the rows with arrow keys, focus that never falls to the
 * page's body, the sticky header row, columns that say why they do not sort, and action scopes
 * in words.
 */
import type { Page } from 'playwright-core';
import { expect, type Suite } from './harness';
import { openCollection, pick, rowIds, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

/** Forgets what lists remember (page size, sort, last view), so other tests start afresh. */
async function forgetLists(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const storage of [localStorage, sessionStorage]) {
      for (const key of Object.keys(storage)) {
        if (key.startsWith('canopy.view.') || key.startsWith('canopy.last-view.'))
          storage.removeItem(key);
      }
    }
  });
}

/** What has the focus: a short description (`BODY` when it fell to the page's body). */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'BODY';
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40);
    return `${element.tagName}${element.id ? `#${element.id}` : ''} ${name ?? ''}`.trim();
  });
}

export async function runListTests(suite: Suite, p: Page, who: string, shot: Shot): Promise<void> {
  await forgetLists(p);

  await suite.test(
    `(${who}) typing searches without Enter, and shows it is searching`,
    async () => {
      await openCollection(p, 'Customers');
      const searched: string[] = [];
      const onRequest = (request: { url(): string }) => {
        const url = new URL(request.url());
        if (/\/forest\/customers$/.test(url.pathname) && url.searchParams.has('search'))
          searched.push(url.searchParams.get('search')!);
      };
      p.on('request', onRequest);
      try {
        const box = p.getByLabel('Search customers');
        await box.click();
        await box.pressSequentially('Lovelace', { delay: 40 });
        // Typed, not searched yet: the box says it is on its way.
        await p.getByTestId('searching').waitFor();
        await p.waitForURL(/q=Lovelace/);
        await settle(p);
        await p.locator('tbody mark').first().waitFor();
        expect(
          (await p.locator('tbody mark').first().textContent()) === 'Lovelace',
          'the match is highlighted',
        );
        expect(
          searched.length === 1 && searched[0] === 'Lovelace',
          `one search, for the whole word, not one per key: ${JSON.stringify(searched)}`,
        );
        expect(!(await p.getByTestId('searching').count()), 'the spinner is gone once searched');
        await shot(p, `search-as-you-type-${who}`);
        // Escape empties the box and the search.
        await box.press('Escape');
        await p.waitForURL((url) => !url.searchParams.has('q'));
      } finally {
        p.off('request', onRequest);
      }
    },
  );

  await suite.test(
    `(${who}) Escape closes the innermost list, then the builder, keeping a three-condition nested filter`,
    async () => {
      await openCollection(p, 'Orders');
      const filterButton = p.getByRole('button', { name: /^Filter/ });
      await filterButton.click();
      await pick(p, 'Field of condition 1', 'Status');
      await pick(p, 'Operator of condition 1', 'is');
      await pick(p, 'Value of condition 1', 'paid');
      await p.getByRole('button', { name: 'Add group' }).click();
      await p.getByRole('textbox', { name: 'Field of condition 2.1', exact: true }).fill('Last');
      await p.getByRole('option', { name: 'Customer › Last name', exact: true }).click();
      await pick(p, 'Operator of condition 2.1', 'is');
      await p.getByLabel('Value of condition 2.1', { exact: true }).fill('Lovelace');
      await p.getByRole('button', { name: 'Add condition' }).nth(0).click();
      await p.getByRole('textbox', { name: 'Field of condition 2.2', exact: true }).fill('Last');
      await p.getByRole('option', { name: 'Customer › Last name', exact: true }).click();
      await pick(p, 'Operator of condition 2.2', 'is');
      await p.getByLabel('Value of condition 2.2', { exact: true }).fill('Hopper');
      // A field's options are open: the first Escape closes them only.
      await p.getByRole('textbox', { name: 'Operator of condition 1', exact: true }).click();
      await p.getByRole('option', { name: 'is', exact: true }).first().waitFor();
      await p.keyboard.press('Escape');
      await p.getByRole('option', { name: 'is', exact: true }).first().waitFor({ state: 'hidden' });
      const value22 = p.getByLabel('Value of condition 2.2', { exact: true });
      expect(await value22.isVisible(), 'the builder is still open after the first Escape');
      // The second closes the builder; focus goes back to the Filter button, not the body.
      await p.keyboard.press('Escape');
      await value22.waitFor({ state: 'hidden' });
      await p.waitForTimeout(50); // Focus returns after the dropdown closes.
      const afterEscape = await focused(p);
      expect(
        afterEscape.startsWith('BUTTON') && afterEscape.includes('Filter'),
        `focus: ${afterEscape}`,
      );
      await p.getByTestId('filter-draft').waitFor();
      // Opened again: the three conditions are still there.
      await filterButton.click();
      expect(
        (await p.getByLabel('Value of condition 2.1', { exact: true }).inputValue()) ===
          'Lovelace' &&
          (await p.getByLabel('Value of condition 2.2', { exact: true }).inputValue()) ===
            'Hopper' &&
          (await p
            .getByRole('textbox', { name: 'Value of condition 1', exact: true })
            .inputValue()) === 'paid',
        'the draft kept its three conditions',
      );
      await p.waitForTimeout(300); // The builder fades in.
      await shot(p, `filter-draft-${who}`);
      await p.getByRole('button', { name: 'Apply filter' }).click();
      await p.waitForURL(/filters=/);
      await settle(p);
      const tree = JSON.parse(new URL(p.url()).searchParams.get('filters')!);
      expect(
        tree.aggregator === 'and' &&
          tree.conditions.length === 2 &&
          tree.conditions[1].conditions?.length === 2,
        `the nested filter is applied: ${JSON.stringify(tree)}`,
      );
      await p.waitForTimeout(50);
      const afterApply = await focused(p);
      expect(
        afterApply.startsWith('BUTTON') && afterApply.includes('Filter'),
        `focus after applying: ${afterApply}`,
      );
      // The Columns chooser gives the focus back too.
      await p.getByRole('button', { name: 'Columns' }).click();
      await p.getByText('Shown columns, in order').waitFor();
      await p.keyboard.press('Escape');
      await p.getByText('Shown columns, in order').waitFor({ state: 'hidden' });
      await p.waitForTimeout(50);
      const afterColumns = await focused(p);
      expect(afterColumns.includes('Columns'), `focus after the columns: ${afterColumns}`);
      await p.getByRole('button', { name: /^Filter/ }).click();
      await p.getByRole('button', { name: 'Clear' }).click();
      await p.waitForURL((url) => !url.searchParams.has('filters'));
    },
  );

  await suite.test(
    `(${who}) page size and sort survive a record and back, the sidebar and a reload`,
    async () => {
      await openCollection(p, 'Orders');
      await pick(p, 'Records per page', '50 per page');
      await p.waitForURL(/size=50/);
      await p.getByRole('button', { name: 'Sort by Id' }).click();
      await p.waitForURL(/sort=-id/);
      await settle(p);
      const ids = await rowIds(p);
      const sizeShown = async () =>
        p.getByRole('textbox', { name: 'Records per page' }).inputValue();
      const check = async (when: string) => {
        await settle(p);
        const url = new URL(p.url());
        expect(
          url.searchParams.get('size') === '50' && url.searchParams.get('sort') === '-id',
          `${when}: the address keeps the view (${url.search})`,
        );
        expect((await sizeShown()) === '50 per page', `${when}: ${await sizeShown()}`);
        expect((await rowIds(p))[0] === ids[0], `${when}: the same first record`);
      };
      await p.locator(`tbody tr[data-record-id="${ids[0]}"] td`).nth(1).click();
      await p.waitForURL(new RegExp(`/data/orders/${ids[0]}$`));
      await p.goBack();
      await check('back from a record');
      await openCollection(p, 'Customers');
      await openCollection(p, 'Orders');
      await check('back through the sidebar');
      await p.reload();
      await check('after a reload');
      // A new tab on the bare address: the user's page size and sort (localStorage).
      const other = await p.context().newPage();
      try {
        await other.goto(p.url().replace(/\?.*$/, ''));
        await other.locator('tbody tr[data-record-id]').first().waitFor();
        await other.waitForURL(/size=50/);
        expect(/sort=-id/.test(other.url()), `the new tab sorts as the user did: ${other.url()}`);
      } finally {
        await other.close();
      }
    },
  );

  await suite.test(
    `(${who}) a skip link, then one Tab stop for the rows; arrows, Home/End, Space and Enter`,
    async () => {
      await openCollection(p, 'Orders');
      // A fresh page: Tab starts from its top.
      await p.reload();
      await settle(p);
      await p.keyboard.press('Tab');
      expect((await focused(p)).includes('Skip to content'), `first Tab: ${await focused(p)}`);
      await shot(p, `skip-link-${who}`);
      await p.keyboard.press('Enter');
      expect((await focused(p)).startsWith('MAIN#main-content'), `skip: ${await focused(p)}`);
      // From the last control of the header row, one Tab reaches the rows, the next leaves them.
      await p.locator('thead').locator('button, [tabindex="0"]').last().focus();
      await p.keyboard.press('Tab');
      const ids = await rowIds(p);
      const focusedRow = () =>
        p.evaluate(() => document.activeElement?.getAttribute('data-record-id') ?? null);
      expect((await focusedRow()) === ids[0], `Tab lands on the first row: ${await focused(p)}`);
      await p.keyboard.press('ArrowDown');
      await p.keyboard.press('ArrowDown');
      expect((await focusedRow()) === ids[2], `two rows down: ${await focusedRow()}`);
      await shot(p, `row-focus-${who}`);
      await p.keyboard.press('End');
      expect((await focusedRow()) === ids.at(-1), `End: ${await focusedRow()}`);
      await p.keyboard.press('Home');
      expect((await focusedRow()) === ids[0], `Home: ${await focusedRow()}`);
      await p.keyboard.press('PageDown');
      expect((await focusedRow()) === ids[10], `PageDown: ${await focusedRow()}`);
      await p.keyboard.press('ArrowUp');
      expect((await focusedRow()) === ids[9], `ArrowUp: ${await focusedRow()}`);
      await p.keyboard.press('Tab');
      const left = await focused(p);
      expect(
        !(await p.evaluate(() => !!document.activeElement?.closest('tbody'))),
        `the next Tab leaves the rows: ${left}`,
      );
      await p.keyboard.press('Shift+Tab');
      expect((await focusedRow()) === ids[9], `Shift+Tab comes back to row 10: ${left}`);
      await p.keyboard.press(' ');
      await p.locator(`tbody tr[data-record-id="${ids[9]}"][data-selected]`).waitFor();
      await p.keyboard.press(' ');
      await p.locator(`tbody tr[data-record-id="${ids[9]}"]:not([data-selected])`).waitFor();
      await p.keyboard.press('Enter');
      await p.waitForURL(new RegExp(`/data/orders/${ids[9]}$`));
      await p.goBack();
      await settle(p);
    },
  );

  await suite.test(`(${who}) the header row stays in view while the rows scroll`, async () => {
    await openCollection(p, 'Orders');
    await pick(p, 'Records per page', '100 per page');
    await p.waitForURL(/size=100/);
    await settle(p);
    const frame = p.locator('.rt-frame');
    await frame.evaluate((element) => element.scrollBy(0, 1500));
    await p.waitForTimeout(100);
    const [frameBox, headBox, rowBox] = await Promise.all([
      frame.boundingBox(),
      p.locator('thead').boundingBox(),
      p.locator('tbody tr[data-record-id]').nth(40).boundingBox(),
    ]);
    const viewport = p.viewportSize()!;
    expect(frameBox && headBox && rowBox, 'the table is laid out');
    expect(
      Math.abs(headBox.y - frameBox.y) < 3 && headBox.y >= 0 && headBox.y < viewport.height,
      `the header row sits at the top of the scrolled table (${headBox.y} vs ${frameBox.y})`,
    );
    expect(rowBox.y < frameBox.y, 'the first rows scrolled away under it');
    await shot(p, `sticky-header-${who}`);
    await pick(p, 'Records per page', '25 per page');
    await p.waitForURL((url) => !url.searchParams.has('size'));
  });

  await suite.test(`(${who}) a column that cannot sort says why`, async () => {
    await openCollection(p, 'Orders');
    const total = p.locator('thead [data-unsortable]', { hasText: 'Total' });
    await total.waitFor();
    expect(!(await p.getByRole('button', { name: 'Sort by Total' }).count()), 'no sort button');
    await total.hover();
    const tooltip = p.locator('.mantine-Tooltip-tooltip');
    await tooltip.waitFor();
    const text = (await tooltip.textContent()) ?? '';
    expect(/computed field/.test(text), `the tooltip says why: ${text}`);
    await p.waitForTimeout(200); // The tooltip fades in.
    expect(
      /cannot be sorted/.test((await total.getAttribute('aria-label')) ?? ''),
      'a screen reader hears it too',
    );
    await shot(p, `unsortable-${who}`);
    await p.mouse.move(0, 0);
  });

  await suite.test(`(${who}) the Actions menu says what each action runs on`, async () => {
    /** The scope badge of each action the menu lists, in the collection's list. */
    const scopes = async (collection: string): Promise<string[]> => {
      await openCollection(p, collection);
      await p.getByTestId('actions-menu').click();
      const menu = p.getByRole('menu');
      await menu.waitFor();
      const words = await menu.evaluate((element) => (element as HTMLElement).innerText);
      expect(!/\b(SINGLE|BULK|GLOBAL)\b/i.test(words), `no protocol words: ${words}`);
      const badges = await menu
        .getByRole('menuitem')
        .evaluateAll((items) =>
          items.map((item) => (item.querySelector('.mantine-Badge-root') as HTMLElement).innerText),
        );
      if (collection === 'Orders') {
        await p.waitForTimeout(300); // The menu fades in.
        await shot(p, `actions-menu-${who}`);
      }
      await p.keyboard.press('Escape');
      return badges;
    };
    const orders = await scopes('Orders');
    const known = ['One record', 'Selected records', 'Whole collection', 'Needs approval'];
    expect(
      orders.length > 0 && orders.every((badge) => known.includes(badge)),
      `each action says its scope: ${orders.join(', ')}`,
    );
    expect(orders.includes('One record'), `single-record actions: ${orders.join(', ')}`);
    if (who === 'admin') {
      expect(orders.includes('Selected records'), `bulk actions: ${orders.join(', ')}`);
      const products = await scopes('Products');
      expect(products.includes('Whole collection'), `global actions: ${products.join(', ')}`);
    }
  });

  await forgetLists(p);
}
