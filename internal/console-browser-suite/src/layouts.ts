/**
 * Console layouts (issue 32): the admin shapes the lists of team Europe in layout mode — hides and
 * reorders columns, picks display widgets — and publishes; the Support member of Europe then sees
 * exactly that, while the admin's own team (Operations) keeps the default lists.
 */
import type { Page } from 'playwright-core';
import type { Fixture } from './fixture';
import { openBrowser } from './browser';
import { expect, type Suite } from './harness';
import { openCollection, pick, settle, signIn } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

const headers = (page: Page) =>
  page
    .locator('thead th')
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()).filter(Boolean));

/** Opens layout mode on the open list, for team `team`, and waits for its draft. */
async function openLayout(p: Page, team: string) {
  await p.getByRole('button', { name: 'Layout', exact: true }).click();
  const panel = p.getByRole('dialog');
  await panel.waitFor();
  await pick(p, 'Team', team);
  await panel
    .getByRole('button', { name: 'Publish', exact: true })
    .and(p.locator(':enabled'))
    .waitFor();
  return panel;
}

async function closeLayout(p: Page) {
  await p.getByRole('button', { name: 'Close layout mode' }).click();
  await p.getByRole('dialog').waitFor({ state: 'detached' });
}

export async function runLayoutTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  let europeProducts: string[] = [];
  let operationsProducts: string[] = [];
  const shaped = await suite.test(
    '(layout) the admin shapes team Europe’s lists in layout mode and publishes',
    async () => {
      await openCollection(p, 'Products');
      const before = await headers(p);
      operationsProducts = before;
      expect(before.includes('Stock'), `products show Stock by default: ${before}`);
      let panel = await openLayout(p, 'Europe');
      await panel.getByRole('checkbox', { name: 'Stock' }).uncheck();
      await panel.getByRole('button', { name: 'Move Price up' }).click();
      await pick(p, 'Widget of Price', 'Currency');
      await pick(p, 'Widget of Category', 'Badge');
      await pick(p, 'Widget of Name', 'Markdown');
      await pick(p, 'Widget of Sku', 'Image');
      await settle(p);
      europeProducts = await headers(p);
      expect(!europeProducts.includes('Stock'), `the preview hides Stock: ${europeProducts}`);
      const price = europeProducts.indexOf('Price');
      expect(
        price >= 0 && price < before.indexOf('Price'),
        `Price moved up: ${before} → ${europeProducts}`,
      );
      expect(
        (await p.locator('tbody tr').first().innerText()).includes('€'),
        'the preview shows prices in euros',
      );
      await shot(p, 'layout-editor-products');
      await closeLayout(p);

      await openCollection(p, 'Orders');
      panel = await openLayout(p, 'Europe');
      await pick(p, 'Widget of Status', 'Badge');
      await panel.getByLabel('Colour of delivered').fill('#2f9e44');
      await pick(p, 'Widget of Created at', 'Relative time');
      await panel.getByRole('button', { name: 'Publish', exact: true }).click();
      await panel.getByText(/^Published: everyone in Europe/).waitFor();
      await shot(p, 'layout-editor-orders-published');
      await closeLayout(p);
    },
  );
  if (!shaped) return;

  await suite.test('(layout) Support of Europe sees the published layout', async () => {
    const other = await openBrowser();
    other.context.setDefaultTimeout(60_000);
    try {
      const { page: support } = await signIn(other.context, fixture, fixture.support);
      await openCollection(support, 'Products');
      const seen = await headers(support);
      expect(
        JSON.stringify(seen) === JSON.stringify(europeProducts),
        `Europe's products columns: ${seen} (published ${europeProducts})`,
      );
      expect(
        (await support.locator('tbody tr').first().innerText()).includes('€'),
        'prices in euros',
      );
      expect(await support.locator('tbody [data-widget="badge"]').count(), 'category badges');
      await shot(support, 'layout-support-products-light');
      await openCollection(support, 'Orders');
      const firstRow = await support.locator('tbody tr').first().innerText();
      expect(/ago|yesterday|last /.test(firstRow), `a relative creation time: ${firstRow}`);
      expect(await support.locator('tbody [data-widget="badge"]').count(), 'status badges');
      await shot(support, 'layout-support-orders-light');
      await support.emulateMedia({ colorScheme: 'dark' });
      await shot(support, 'layout-support-orders-dark');
      await openCollection(support, 'Products');
      await shot(support, 'layout-support-products-dark');
      expect(
        !(await support.getByRole('button', { name: 'Layout', exact: true }).count()),
        'a member who may not edit layouts has no Layout button',
      );
    } finally {
      await other.close();
    }
  });

  await suite.test('(layout) the admin’s own team (Operations) keeps the default', async () => {
    await openCollection(p, 'Products');
    const own = await headers(p);
    expect(
      JSON.stringify(own) === JSON.stringify(operationsProducts),
      `Operations keeps its columns: ${own} (before: ${operationsProducts})`,
    );
    expect(!(await p.locator('tbody [data-widget]').count()), 'Operations shows no widgets');
  });
}
