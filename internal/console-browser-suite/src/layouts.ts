/**
 * Console layouts (issue 32): the admin shapes the lists of team Europe in layout mode — hides and
 * reorders columns, picks display widgets — and its order page (a related tab first, then the
 * order's fields in sections), and publishes; the Support member of Europe then sees exactly that,
 * while the admin's own team (Operations) keeps the default. Europe's layout is put back as it was
 * at the end: later tests read Europe's lists without one. The core (lists and the order page; not
 * the form and the sidebar) also runs against the reference agent: layouts live on the platform.
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

/** Opens layout mode with `button` ("Layout", on a page), for team `team`, and waits for its draft. */
export async function openLayout(p: Page, team: string, button = 'Layout') {
  await p.getByRole('button', { name: button, exact: true }).click();
  const panel = p.getByRole('dialog');
  await panel.waitFor();
  await pick(p, 'Team', team);
  await panel
    .getByRole('button', { name: 'Publish', exact: true })
    .and(p.locator(':enabled'))
    .waitFor();
  return panel;
}

/** The names of the record page's tabs, in order. */
const tabNames = (page: Page) =>
  page
    .getByRole('tab')
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()));

/** Opens the first record of the open list. */
async function openFirstRecord(page: Page) {
  const first = page.locator('tbody tr[data-record-id]').first();
  const id = await first.getAttribute('data-record-id');
  await first.locator('td').nth(1).click();
  await page.waitForURL(new RegExp(`/${id}$`));
  await page.getByRole('tab').first().waitFor();
}

/** Runs `check` in a browser of its own, signed in as the Support member of Europe. */
export async function asSupport(fixture: Fixture, check: (support: Page) => Promise<void>) {
  const other = await openBrowser();
  other.context.setDefaultTimeout(60_000);
  try {
    await check((await signIn(other.context, fixture, fixture.support)).page);
  } finally {
    await other.close();
  }
}

export const EUROPE = '/v1/project/Shop/environment/Production/teams/Europe';

/** Opens layout mode on the sidebar, for team `team`, and waits for its draft. */
export const openSidebarLayout = (p: Page, team: string) =>
  openLayout(p, team, 'Layout of the sidebar');

export async function closeLayout(p: Page) {
  await p.getByRole('button', { name: 'Close layout mode' }).click();
  await p.getByRole('dialog').waitFor({ state: 'detached' });
}

export async function runLayoutTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
  /** The lists and the record page only: what every agent runs. */
  options: { core?: boolean } = {},
): Promise<void> {
  const europeBefore = await fixture.manage<{ published: { layout: object } | null }>(
    'GET',
    `${EUROPE}/layout`,
  );
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
    await asSupport(fixture, async (support) => {
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
    });
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

  // The field given a second section of its own: the order's total is a computed field of the
  // demo's Canopy agent; the reference agent serves the table's columns only (the shipping day).
  const [section, label, field] =
    fixture.agentKind === 'canopy'
      ? ['Money', 'Total', 'total']
      : ['Shipping', 'Shipped on', 'shipped_on'];
  await suite.test(
    '(layout) the admin lays out Europe’s order page: a related tab first, then sections',
    async () => {
      await openCollection(p, 'Orders');
      await openFirstRecord(p);
      const before = await tabNames(p);
      expect(before[0] === 'Details', `the default page opens on Details: ${before}`);
      const panel = await openLayout(p, 'Europe');
      const earlier = panel.getByRole('button', { name: 'Move Payments earlier' });
      while (await earlier.isEnabled()) await earlier.click();
      for (const name of await panel
        .getByRole('button', { name: /^Remove tab / })
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')!))) {
        if (!/Payments|Details/.test(name)) await panel.getByRole('button', { name }).click();
      }
      await panel.getByLabel('Title of tab Details').fill('Order');
      await panel.getByRole('button', { name: 'Add a section' }).click();
      await panel.getByLabel('Title of section 2 of Order').fill(section);
      await panel.getByLabel(`Fields of ${section} of Order`).click();
      await p.getByRole('option', { name: label, exact: true }).click();
      await panel.getByLabel('Title of section 1 of Order').fill('The order');
      const preview = await tabNames(p);
      expect(
        preview[0] === 'Payments' && preview[1] === 'Order' && !preview.includes('Details'),
        `the preview: Payments, then Order: ${preview}`,
      );
      await shot(p, 'layout-editor-record');
      await panel.getByRole('button', { name: 'Publish', exact: true }).click();
      await panel.getByText(/^Published: everyone in Europe/).waitFor();
      await closeLayout(p);
      const own = await tabNames(p);
      expect(
        JSON.stringify(own) === JSON.stringify(before),
        `Operations keeps its page: ${own} (before: ${before})`,
      );
    },
  );

  await suite.test('(layout) Support of Europe sees the order page as laid out', async () => {
    await asSupport(fixture, async (support) => {
      await openCollection(support, 'Orders');
      await openFirstRecord(support);
      const tabs = await tabNames(support);
      expect(
        tabs[0] === 'Payments' && tabs[1] === 'Order' && !tabs.includes('Details'),
        `Europe's order page: ${tabs}`,
      );
      const selected = await support.getByRole('tab', { selected: true }).innerText();
      expect(selected.trim() === 'Payments', `the page opens on Payments: ${selected}`);
      await support.locator('[role="tabpanel"] table').first().waitFor();
      await shot(support, 'layout-support-record-related');
      await support.getByRole('tab', { name: 'Order' }).click();
      const second = support.getByRole('region', { name: section });
      await second.waitFor();
      expect(
        (
          await second.locator('[data-field]').evaluateAll((f) => f.map((e) => e.dataset.field))
        ).join() === field,
        `the ${section} section holds the ${field} only`,
      );
      expect(
        !(await support
          .getByRole('region', { name: 'The order' })
          .locator(`[data-field="${field}"]`)
          .count()),
        `the ${field} left the first section`,
      );
      await shot(support, 'layout-support-record-sections');
    });
  });

  if (!options.core) await runFormAndSidebarTests(suite, fixture, p, shot);

  await suite.test('(layout) Europe’s layout is put back as it was', async () => {
    await fixture.manage('PUT', `${EUROPE}/layout/draft`, {
      layout: europeBefore.published?.layout ?? {},
    });
    await fixture.manage('POST', `${EUROPE}/layout/publish`);
    const now = await fixture.manage<{ published: { layout: object } }>('GET', `${EUROPE}/layout`);
    expect(
      JSON.stringify(now.published.layout) === JSON.stringify(europeBefore.published?.layout ?? {}),
      'Europe’s layout is the one it had before these tests',
    );
  });
}

async function runFormAndSidebarTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  await suite.test('(layout) the admin puts Europe’s order edit form in sections', async () => {
    await openCollection(p, 'Orders');
    await openFirstRecord(p);
    await p.getByRole('link', { name: 'Edit', exact: true }).click();
    await p.getByRole('button', { name: 'Save changes' }).waitFor();
    const panel = await openLayout(p, 'Europe');
    await panel.getByLabel('Title of section 1 of the form').fill('Delivery');
    await panel.getByRole('button', { name: 'Add a section' }).click();
    await panel.getByLabel('Title of section 2 of the form').fill('State');
    await panel.getByLabel('Fields of State of the form').click();
    await p.getByRole('option', { name: 'Status', exact: true }).click();
    await panel.getByText('Sections, in order').click(); // closes the list of fields
    await panel.getByRole('textbox', { name: 'Read-only when editing' }).click();
    await p.getByRole('option', { name: 'Shipped on', exact: true }).click();
    await panel.getByText('Sections, in order').click();
    await pick(p, 'Edit widget of Status', 'Badge');
    const state = p.getByRole('group', { name: 'State' });
    await state.getByLabel('Status').first().waitFor();
    await shot(p, 'layout-editor-form');
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    await panel.getByText(/^Published: everyone in Europe/).waitFor();
    await closeLayout(p);
    expect(
      !(await p.getByRole('group', { name: 'State' }).count()),
      'the admin’s own team keeps one section',
    );
  });

  await suite.test(
    '(layout) Support of Europe edits an order in the sections laid out',
    async () => {
      await asSupport(fixture, async (support) => {
        await openCollection(support, 'Orders');
        await openFirstRecord(support);
        await support.getByRole('link', { name: 'Edit', exact: true }).click();
        const state = support.getByRole('group', { name: 'State' });
        await state.waitFor();
        // The edit widget (a badge select) loads with the first form that uses one; the plain
        // input stands in for it until then.
        await support.locator('[data-edit-widget="badge"]').waitFor();
        expect(await state.getByLabel('Status').count(), 'Status is in the State section');
        expect(
          await support.getByRole('group', { name: 'Delivery' }).count(),
          'the first section is Delivery',
        );
        expect(
          await support.getByLabel('Shipped on', { exact: true }).isDisabled(),
          'Shipped on is read-only when editing',
        );
        expect(
          await support.locator('[data-edit-widget="badge"]').count(),
          'Status is picked among badges',
        );
        await support.locator('[data-edit-widget="badge"]').click();
        await support.getByRole('option').first().waitFor();
        await shot(support, 'layout-support-form');
      });
    },
  );

  const navNames = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Collections' })
      .getByRole('link')
      .allInnerTexts()
      // Settings is for admins only: the same sidebar otherwise. A link's first line is its name
      // (Approvals carries the count of requests waiting for the reader below it).
      .then((texts) =>
        texts
          .map((text) => text.trim().split('\n')[0]!.trim())
          .filter((t) => t && t !== 'Settings'),
      );

  let europeSidebar: string[] = [];
  await suite.test('(layout) the admin renames and reorders Europe’s sidebar', async () => {
    const before = await navNames(p);
    const panel = await openSidebarLayout(p, 'Europe');
    const up = panel.getByRole('button', { name: 'Move Products up' });
    while (await up.isEnabled()) await up.click();
    await panel.getByLabel('Name of Orders').fill('Sales orders');
    await panel.getByLabel('Show Reviews').uncheck();
    europeSidebar = await navNames(p);
    await shot(p, 'layout-editor-sidebar');
    const products = europeSidebar.indexOf('Products');
    expect(
      products >= 0 && products < before.indexOf('Products'),
      `the preview moves Products up: ${before} → ${europeSidebar}`,
    );
    expect(
      europeSidebar.includes('Sales orders') && !europeSidebar.includes('Reviews'),
      `the preview renames Orders and hides Reviews: ${europeSidebar}`,
    );
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    await panel.getByText(/^Published: everyone in Europe/).waitFor();
    await closeLayout(p);
    const own = await navNames(p);
    expect(
      JSON.stringify(own) === JSON.stringify(before),
      `Operations keeps its sidebar: ${own} (before: ${before})`,
    );
  });

  await suite.test('(layout) Support of Europe sees the sidebar as laid out', async () => {
    await asSupport(fixture, async (support) => {
      const seen = await navNames(support);
      expect(
        JSON.stringify(seen) === JSON.stringify(europeSidebar),
        `Europe's sidebar: ${seen} (published ${europeSidebar})`,
      );
      await support
        .getByRole('navigation', { name: 'Collections' })
        .getByRole('link', { name: 'Sales orders', exact: true })
        .click();
      await support.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
      expect(
        !(await support.getByRole('button', { name: 'Layout of the sidebar' }).count()),
        'a member who may not edit layouts has no sidebar layout button',
      );
      await shot(support, 'layout-support-sidebar');
    });
  });
}
