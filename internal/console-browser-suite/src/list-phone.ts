/**
 * The collection list on a 390 px phone (issue 31): the toolbar is one row, the search box and
 * one "Filter and actions" button, instead of three wrapped rows; the button shows the filter,
 * the actions, the columns and the export below it; the page never scrolls sideways.
 */
import type { Page } from 'playwright-core';
import { expect, type Suite } from './harness';
import { openCollection, settle } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

export async function runListPhoneTests(
  suite: Suite,
  p: Page,
  who: string,
  shot: Shot,
): Promise<void> {
  await suite.test(
    `(${who}) at 390 px the list toolbar folds into the search and one button`,
    async () => {
      await p.setViewportSize({ width: 1280, height: 800 });
      await openCollection(p, 'Orders');
      // On a desktop, the controls are in the toolbar itself.
      expect(await p.getByRole('button', { name: 'Filter', exact: true }).isVisible(), 'Filter');
      expect(!(await p.getByRole('button', { name: 'Filter and actions' }).count()), 'no fold');
      try {
        await p.setViewportSize({ width: 390, height: 844 });
        const more = p.getByRole('button', { name: 'Filter and actions' });
        await more.waitFor();
        const search = p.getByLabel('Search orders');
        expect(await search.isVisible(), 'the search box stays');
        expect(
          !(await p.getByRole('button', { name: 'Filter', exact: true }).isVisible()),
          'the filter is folded away',
        );
        expect(
          !(await p.getByRole('button', { name: 'Columns' }).isVisible()),
          'the column chooser is folded away',
        );
        // One row: the search box and the button side by side.
        const [box, button] = [await search.boundingBox(), await more.boundingBox()];
        expect(box && button, 'both are laid out');
        expect(
          Math.abs(box!.y + box!.height / 2 - (button!.y + button!.height / 2)) < 4 &&
            button!.x > box!.x + box!.width - 1,
          `search and button on one row: ${JSON.stringify({ box, button })}`,
        );
        const toolbar = await p.getByTestId('table-toolbar').boundingBox();
        const title = await p.getByRole('heading', { name: 'Orders', exact: true }).boundingBox();
        expect(
          toolbar!.y + toolbar!.height - (title!.y + title!.height) < 60,
          `under the title, the toolbar is one row: ${toolbar!.height} px in all`,
        );
        expect((await pageWidth(p)) <= 390, `no sideways scroll: ${await pageWidth(p)} px`);
        await shot(p, `list-phone-folded-${who}`);

        // The button shows the rest, still without sideways scroll.
        await more.click();
        expect((await more.getAttribute('aria-expanded')) === 'true', 'the button says open');
        const filter = p.getByRole('button', { name: 'Filter', exact: true });
        await filter.waitFor();
        await p.waitForTimeout(300); // The panel slides open.
        expect(await p.getByRole('button', { name: 'Columns' }).isVisible(), 'the columns');
        expect((await pageWidth(p)) <= 390, `no sideways scroll open: ${await pageWidth(p)} px`);
        await shot(p, `list-phone-open-${who}`);

        // The filter works from there, and the search as it is typed.
        await filter.click();
        await p.getByRole('button', { name: 'Apply filter' }).waitFor();
        await p.keyboard.press('Escape');
        await p.getByRole('button', { name: 'Apply filter' }).waitFor({ state: 'hidden' });
        await search.click();
        await search.pressSequentially('1', { delay: 40 });
        await p.waitForURL(/q=1/);
        await settle(p);
        expect((await pageWidth(p)) <= 390, `no sideways scroll searched: ${await pageWidth(p)}`);
        await search.press('Escape');
        await p.waitForURL((url) => !url.searchParams.has('q'));
        await more.click();
        await filter.waitFor({ state: 'hidden' });
      } finally {
        await p.setViewportSize({ width: 1280, height: 800 });
      }
    },
  );
}
