/**
 * Forms that protect data, and errors in the user's words (issue 31): a value over a field's
 * limit is refused on the field before anything is sent and never widens the page, the first
 * error of a long form is scrolled into view and focused, an action that needs approval says so
 * before submit, a refunded order cannot be refunded again, and the agent's errors read as
 * sentences with the technical text behind a toggle. In both personas where it applies.
 */
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, signIn } from './suite';

/** True when the page does not scroll sideways: nothing is wider than the viewport. */
async function fitsViewport(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Opens the edit form of the first customer of the list. */
async function editFirstCustomer(page: Page): Promise<void> {
  await openCollection(page, 'Customers');
  await page.locator('tbody tr[data-record-id]').first().locator('td').nth(1).click();
  await page.waitForURL(/\/data\/customers\/\d+$/);
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByRole('heading', { name: /^Edit/ }).waitFor();
}

/** A 300-character first name is refused on its field, nothing is sent, the page keeps its width. */
async function refuseLongName(
  page: Page,
  shot: (page: Page, name: string) => Promise<void>,
  persona: string,
) {
  await editFirstCustomer(page);
  const url = page.url();
  let saved = false;
  const watch = (request: { method(): string; url(): string }) => {
    if (request.method() === 'PATCH' && request.url().includes('/customers/')) saved = true;
  };
  page.on('request', watch);
  try {
    const input = page.getByRole('textbox', { name: 'First name', exact: true });
    await input.fill('x'.repeat(300));
    // Said as the limit is passed, before any submit.
    await page.getByText('First name takes at most 100 characters; you entered 300.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForTimeout(300);
    expect(!saved, 'nothing is sent to the agent');
    expect(page.url() === url, 'the form stays open');
    expect(
      await input.evaluate((element) => element === document.activeElement),
      'the field in error has the focus',
    );
    expect(await fitsViewport(page), 'the page does not widen (scrollWidth <= viewport)');
    await shot(page, `form-long-value-refused-${persona}`);
  } finally {
    page.off('request', watch);
  }
}

export async function runFormTests(
  suite: Suite,
  p: Page,
  fixture: Fixture,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  await suite.test('a 300-character first name is refused on its field (admin)', async () => {
    await p.setViewportSize({ width: 1280, height: 800 });
    await refuseLongName(p, shot, 'admin');
  });

  await suite.test('a rule of the schema is said in words before submit', async () => {
    await editFirstCustomer(p);
    await p.getByRole('textbox', { name: 'Email', exact: true }).fill('ann.example.com');
    await p.getByRole('button', { name: 'Save changes' }).click();
    await p.getByText('Email must contain “@”.').waitFor();
    expect(!(await p.getByText('failed validation rule').count()), 'no protocol text on the page');
  });

  await suite.test(
    'the first error of a long action form is scrolled into view and focused',
    async () => {
      // A short window: the top of the promotion form is off-screen once its button is reached.
      await p.setViewportSize({ width: 1280, height: 600 });
      try {
        await openCollection(p, 'Products');
        await p.getByTestId('actions-menu').click();
        await p.getByRole('menuitem', { name: /^Plan a promotion/ }).click();
        const dialog = p.getByTestId('action-dialog');
        const title = dialog.getByRole('textbox', { name: 'Title' });
        await title.waitFor();
        await dialog.getByRole('textbox', { name: 'Discount' }).fill('150');
        const schedule = dialog.getByRole('button', { name: 'Schedule', exact: true });
        await schedule.scrollIntoViewIfNeeded();
        expect(
          await title.evaluate((element) => element.getBoundingClientRect().bottom < 0),
          'the Title field is off-screen when Schedule is clicked',
        );
        await schedule.click();
        await dialog.getByText('Title is required.').waitFor();
        await p.waitForFunction(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active.getAttribute('aria-invalid') !== 'true') return false;
          const box = active.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
        expect(
          await title.evaluate((element) => element === document.activeElement),
          'the Title field (the first error) has the focus',
        );
        await shot(p, 'action-first-error-focused');
        // The range of the discount is checked too, once the title is given.
        await title.fill('Winter sale');
        await schedule.click();
        await dialog.getByText('Discount must be at most 100.').waitFor();
        expect(await fitsViewport(p), 'the page does not widen');
        await p.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      } finally {
        await p.setViewportSize({ width: 1280, height: 800 });
      }
    },
  );

  await suite.test('an id no record can have is said in words, details on demand', async () => {
    const base = p.url().replace(/\/data\/.*$/, '/data');
    await p.goto(`${base}/orders/99999999999`);
    const alert = p.getByRole('alert');
    await alert.getByText('Order #99999999999 does not exist').waitFor();
    expect(
      !(await alert.getByText('Record does not exists').isVisible()),
      'the technical text is hidden',
    );
    await alert.getByRole('button', { name: 'Technical details' }).click();
    await alert.getByText(/Record does not exists: 'orders'/).waitFor();
    await p.waitForTimeout(300); // The details unfold.
    await shot(p, 'friendly-error-details');
  });

  await suite.test('Refund is declined on a refunded order, with the reason', async () => {
    await openCollection(p, 'Orders');
    const row = p.locator('tbody tr[data-record-id]', { hasText: 'refunded' }).first();
    await row.waitFor();
    const id = (await row.getAttribute('data-record-id'))!;
    await row.locator('td').nth(1).click();
    await p.waitForURL(new RegExp(`/data/orders/${id}$`));
    await p.getByTestId('actions-menu').click();
    await p.getByRole('menuitem', { name: /^Refund order/ }).click();
    const dialog = p.getByTestId('action-dialog');
    await dialog
      .getByText(`Order #${id} is already refunded; it cannot be refunded again.`)
      .waitFor();
    expect(
      await dialog.getByRole('button', { name: 'Refund order' }).isDisabled(),
      'the submit button is disabled',
    );
    await shot(p, 'refund-declined');
    await p.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  await suite.test(
    'Support sees "Request approval" on Refund before submitting; a long name is refused',
    async () => {
      const other = await openBrowser();
      other.context.setDefaultTimeout(60_000);
      try {
        const { page: support } = await signIn(other.context, fixture, fixture.support);
        await openCollection(support, 'Orders');
        const row = support.locator('tbody tr[data-record-id]', { hasText: 'paid' }).first();
        await row.locator('td').nth(1).click();
        await support.waitForURL(/\/data\/orders\/\d+$/);
        await support.getByTestId('actions-menu').click();
        await support.getByRole('menuitem', { name: /^Refund order/ }).click();
        const dialog = support.getByTestId('action-dialog');
        await dialog.getByTestId('approval-notice').waitFor();
        await dialog.getByRole('button', { name: 'Request approval' }).waitFor();
        expect(
          !(await dialog.getByRole('button', { name: 'Refund order' }).count()),
          'no plain "Refund order" button for a role that needs approval',
        );
        await shot(support, 'refund-needs-approval');
        await support.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await refuseLongName(support, shot, 'support');
      } finally {
        await other.close();
      }
    },
  );
}
