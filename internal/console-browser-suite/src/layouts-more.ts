/**
 * The rest of a team's layout (issue 32): in layout mode the admin gives team Europe's orders a
 * row colouring rule and a first segment, and its sidebar an icon, and publishes; the Support
 * member of Europe sees the coloured rows (each saying why), the list opened on that segment (their
 * own choice of "All records" then wins) and the icon, while the admin's own team (Operations)
 * keeps the default. A first segment that no longer exists is ignored. Then the admin copies
 * Europe's layout to Operations with the copy control, and Operations (the admin) sees it. Both
 * teams' layouts are put back as they were.
 */
import type { Page } from 'playwright-core';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { asSupport, closeLayout, EUROPE, openLayout, openSidebarLayout } from './layouts';
import { openCollection, pick, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;
type Published = { published: { layout: object } | null };

const OPERATIONS = EUROPE.replace(/Europe$/, 'Operations');

/** Each row of the open list: its id (a number) and the colour the layout gave it. */
function rowsAndColours(page: Page) {
  return page.locator('tbody tr[data-record-id]').evaluateAll((rows) =>
    (rows as HTMLElement[]).map((row) => ({
      id: Number(row.dataset.recordId),
      colour: row.dataset.rowColour ?? null,
      title: row.title,
    })),
  );
}

const segmentShown = (page: Page) =>
  page.getByRole('textbox', { name: 'Segment', exact: true }).inputValue();

const navIcons = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Collections' })
    .locator('[data-icon]')
    .evaluateAll((icons) => icons.map((icon) => icon.getAttribute('data-icon')));

/**
 * Opens orders from the sidebar as on a new tab: without the tab's memory of its last view
 * (which would restore a segment chosen earlier).
 */
async function openOrdersAfresh(page: Page) {
  await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage))
      if (key.startsWith('canopy.last-view.')) sessionStorage.removeItem(key);
  });
  await openCollection(page, 'Orders');
  await settle(page);
}

/** Publishes `layout` for the team at `team` (a management path) with the admin's token. */
async function putBack(fixture: Fixture, team: string, layout: object) {
  await fixture.manage('PUT', `${team}/layout/draft`, { layout });
  await fixture.manage('POST', `${team}/layout/publish`);
}

export async function runMoreLayoutTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  const europeBefore = await fixture.manage<Published>('GET', `${EUROPE}/layout`);
  const operationsBefore = await fixture.manage<Published>('GET', `${OPERATIONS}/layout`);
  let threshold = 0;

  const set = await suite.test(
    '(layout more) the admin gives Europe row colours, a first segment and a sidebar icon',
    async () => {
      await openCollection(p, 'Orders');
      await pick(p, 'Segment', 'Pending');
      await settle(p);
      // The rule's bound: the median id of the first pending orders, so some rows match, some not.
      const ids = (await rowsAndColours(p)).map((row) => row.id).sort((a, b) => a - b);
      expect(ids.length > 2, `pending orders to colour: ${ids.length}`);
      threshold = ids[Math.floor(ids.length / 2)]!;
      await openOrdersAfresh(p);

      const panel = await openLayout(p, 'Europe');
      await pick(p, 'Opens on the segment', 'Pending');
      await panel.getByRole('button', { name: 'Add a colour rule' }).click();
      await pick(p, 'Field of rule 1', 'Id');
      await pick(p, 'Operator of rule 1', 'is greater than');
      await panel.getByLabel('Value of rule 1').fill(String(threshold));
      await panel.getByLabel('Colour of rule 1').fill('#e03131');
      await panel.getByLabel('Colour of rule 1').press('Enter');
      // The preview, in the admin's own Console: rows past the bound take the colour.
      await p.locator('tbody tr[data-row-colour="#e03131"]').first().waitFor();
      await shot(p, 'layout-more-editor-row-colours');
      await panel.getByRole('button', { name: 'Publish', exact: true }).click();
      await panel.getByText(/^Published: everyone in Europe/).waitFor();
      await closeLayout(p);

      const sidebar = await openSidebarLayout(p, 'Europe');
      await sidebar.getByRole('textbox', { name: 'Icon of Orders', exact: true }).click();
      await p.getByRole('option', { name: 'receipt', exact: true }).click();
      await p
        .getByRole('navigation', { name: 'Collections' })
        .locator('[data-icon="receipt"]')
        .waitFor();
      await shot(p, 'layout-more-editor-sidebar-icon');
      await sidebar.getByRole('button', { name: 'Publish', exact: true }).click();
      await sidebar.getByText(/^Published: everyone in Europe/).waitFor();
      await closeLayout(p);
      const europe = await fixture.manage<{
        published: { layout: { collections?: Record<string, { table?: object }> } };
      }>('GET', `${EUROPE}/layout`);
      expect(
        JSON.stringify(europe.published.layout.collections?.orders?.table).includes(
          `"firstSegment":"Pending"`,
        ),
        `Europe's orders open on Pending: ${JSON.stringify(europe.published.layout)}`,
      );
    },
  );

  if (set) {
    await suite.test(
      '(layout more) Support of Europe sees coloured rows, the first segment and the icon',
      async () => {
        await asSupport(fixture, async (support) => {
          expect(
            JSON.stringify(await navIcons(support)) === '["receipt"]',
            `the orders link has its icon: ${JSON.stringify(await navIcons(support))}`,
          );
          await openCollection(support, 'Orders');
          await settle(support);
          expect(
            (await segmentShown(support)) === 'Pending',
            `the list opens on Pending: ${await segmentShown(support)}`,
          );
          expect(
            !support.url().includes('segment='),
            `no segment in the address: ${support.url()}`,
          );
          const rows = await rowsAndColours(support);
          const wrong = rows.filter((row) => row.id > threshold !== (row.colour === '#e03131'));
          expect(
            rows.length > 0 && wrong.length === 0,
            `rows coloured by id > ${threshold}: ${JSON.stringify(wrong)}`,
          );
          const coloured = rows.filter((row) => row.colour);
          expect(coloured.length > 0, `some rows are coloured (of ${rows.length})`);
          expect(
            coloured.every((row) => row.title === `Highlighted: id is greater than ${threshold}`),
            `a coloured row says why: ${coloured[0]?.title}`,
          );
          await shot(support, 'layout-more-support-orders-light');
          await support.emulateMedia({ colorScheme: 'dark' });
          await shot(support, 'layout-more-support-orders-dark');
          await support.emulateMedia({ colorScheme: 'light' });

          // Their own choice wins: all records, kept in the address and after a reload.
          // The segment's clear button (×), as a person clears the choice.
          await support
            .locator('.mantine-Select-root:has(input[aria-label="Segment"]) button')
            .click();
          await settle(support);
          expect((await segmentShown(support)) === '', 'the segment is cleared');
          expect(
            support.url().includes('segment='),
            `"no segment" is in the address: ${support.url()}`,
          );
          await support.reload();
          await support.locator('tbody tr[data-record-id]').first().waitFor();
          await settle(support);
          expect((await segmentShown(support)) === '', 'still no segment after a reload');
        });
      },
    );

    await suite.test(
      '(layout more) the admin’s own team (Operations) keeps the default',
      async () => {
        await openOrdersAfresh(p);
        expect((await segmentShown(p)) === '', `no first segment: ${await segmentShown(p)}`);
        expect(!(await p.locator('tbody tr[data-row-colour]').count()), 'no coloured rows');
        expect((await navIcons(p)).length === 0, 'no sidebar icons');
      },
    );

    await suite.test('(layout more) a first segment that no longer exists is ignored', async () => {
      const europe = await fixture.manage<{ published: { layout: Record<string, unknown> } }>(
        'GET',
        `${EUROPE}/layout`,
      );
      const layout = JSON.parse(JSON.stringify(europe.published.layout)) as {
        collections: { orders: { table: { firstSegment?: string } } };
      };
      layout.collections.orders.table.firstSegment = 'Gone since';
      await putBack(fixture, EUROPE, layout);
      try {
        await asSupport(fixture, async (support) => {
          await openCollection(support, 'Orders');
          await settle(support);
          expect((await segmentShown(support)) === '', 'all records');
          expect(!(await support.getByRole('alert').count()), 'no error is shown');
          const rows = await rowsAndColours(support);
          expect(
            rows.length > 0 && rows.every((row) => row.id > threshold === (row.colour !== null)),
            `the row colours still apply: ${JSON.stringify(rows.slice(0, 3))}`,
          );
        });
      } finally {
        await putBack(fixture, EUROPE, europe.published.layout);
      }
    });

    await suite.test(
      '(layout more) the admin copies Europe’s layout to Operations, whose member sees it',
      async () => {
        await openCollection(p, 'Orders');
        const panel = await openLayout(p, 'Operations');
        await pick(p, 'Copy the layout of', 'Europe');
        await panel.getByRole('button', { name: 'Copy to Operations' }).click();
        await panel.getByText("Europe's layout is now published for Operations.").waitFor();
        await shot(p, 'layout-more-copy');
        await closeLayout(p);
        const operations = await fixture.manage<Published>('GET', `${OPERATIONS}/layout`);
        const europe = await fixture.manage<Published>('GET', `${EUROPE}/layout`);
        expect(
          JSON.stringify(operations.published?.layout) === JSON.stringify(europe.published?.layout),
          'Operations now has Europe’s layout',
        );
        // A member of Operations (the admin) opening the Console again gets it.
        await p.reload();
        await p.locator('tbody tr[data-record-id]').first().waitFor();
        await p
          .getByRole('navigation', { name: 'Collections' })
          .locator('[data-icon="receipt"]')
          .waitFor();
        await openOrdersAfresh(p);
        expect(
          (await segmentShown(p)) === 'Pending',
          `Operations opens orders on Pending: ${await segmentShown(p)} at ${p.url()}`,
        );
        await p.locator('tbody tr[data-row-colour]').first().waitFor();
        await shot(p, 'layout-more-operations-copied');
      },
    );
  }

  await suite.test('(layout more) Europe’s and Operations’ layouts are put back', async () => {
    await putBack(fixture, EUROPE, europeBefore.published?.layout ?? {});
    await putBack(fixture, OPERATIONS, operationsBefore.published?.layout ?? {});
    for (const [team, before] of [
      [EUROPE, europeBefore],
      [OPERATIONS, operationsBefore],
    ] as const) {
      const now = await fixture.manage<{ published: { layout: object } }>('GET', `${team}/layout`);
      expect(
        JSON.stringify(now.published.layout) === JSON.stringify(before.published?.layout ?? {}),
        `${team} has its layout back`,
      );
    }
    // The admin's Console reads its team's layout again.
    await p.reload();
    await p.locator('tbody tr[data-record-id]').first().waitFor();
  });
}
