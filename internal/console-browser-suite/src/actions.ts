/**
 * Actions and approvals in the browser (issue 21): a bulk action whose dynamic form grows a
 * field once the first one changes, a file result downloaded, a single-record action showing its
 * success HTML, and an approval requested by the support member and approved by the admin, after
 * which the order changed.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, signIn } from './suite';

async function openAction(page: Page, name: string): Promise<void> {
  await page.getByTestId('actions-menu').click();
  await page.getByRole('menuitem', { name: new RegExp(`^${name}`) }).click();
  await page.getByTestId('action-dialog').waitFor();
}

/** Opens the first order of the table whose status is `status`; returns its id. */
async function openOrderWithStatus(page: Page, status: string): Promise<string> {
  await openCollection(page, 'Orders');
  const row = page.locator('tbody tr[data-record-id]', { hasText: status }).first();
  await row.waitFor();
  const id = (await row.getAttribute('data-record-id'))!;
  await row.locator('td').nth(1).click();
  await page.waitForURL(new RegExp(`/data/orders/${id}$`));
  await page.getByRole('tab', { name: 'Details' }).waitFor();
  return id;
}

export async function runActionTests(
  suite: Suite,
  p: Page,
  fixture: Fixture,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  // Earlier tests may leave the page at tablet width, where the sidebar hides behind a burger.
  await p.setViewportSize({ width: 1280, height: 800 });
  await suite.test(
    'a bulk action: its second field appears once the first changes, then the success HTML',
    async () => {
      await openCollection(p, 'Orders');
      const boxes = p.locator('tbody input[type="checkbox"]');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await openAction(p, 'Flag for review');
      const dialog = p.getByTestId('action-dialog');
      await dialog.getByRole('textbox', { name: 'Reason' }).waitFor();
      expect(
        (await dialog.getByRole('textbox', { name: 'Team' }).count()) === 0,
        'no Team field before a reason is chosen',
      );
      await dialog.getByRole('textbox', { name: 'Reason' }).click();
      await p.getByRole('option', { name: 'fraud', exact: true }).click();
      // The agent's change hook answers a form with the Team field, its options per reason.
      await dialog.getByRole('textbox', { name: 'Team' }).waitFor();
      await dialog.getByRole('textbox', { name: 'Team' }).click();
      const options = await p.getByRole('option').allTextContents();
      expect(
        options.join(',') === 'Risk,Legal',
        `the Team options follow the reason: ${options.join(', ')}`,
      );
      await p.getByRole('option', { name: 'Risk', exact: true }).click();
      await dialog.getByRole('textbox', { name: 'Note' }).fill('Two cards, one address');
      await shot(p, 'action-form');
      await dialog.getByRole('button', { name: 'Flag', exact: true }).click();
      await p.getByTestId('action-success').waitFor();
      const html = await p.getByTestId('action-result-html').innerHTML();
      expect(html.includes('<strong>fraud</strong>'), `the success HTML shows: ${html}`);
      expect(
        (await p.getByTestId('action-success').textContent())?.includes(
          '2 orders flagged for Risk',
        ),
        'the success message names both orders',
      );
      await dialog.getByRole('button', { name: 'Close' }).click();
    },
  );

  await suite.test('a single-record action shows its success HTML, sanitized', async () => {
    const id = await openOrderWithStatus(p, 'paid');
    await openAction(p, 'Refund order');
    const dialog = p.getByTestId('action-dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).click();
    await p.getByRole('option', { name: 'late', exact: true }).click();
    const amount = dialog.getByRole('textbox', { name: 'Amount' });
    expect(Number(await amount.inputValue()) > 0, 'the amount defaults to the order total');
    await dialog.getByRole('button', { name: 'Refund order' }).click();
    await p.getByTestId('action-result-html').waitFor();
    const html = await p.getByTestId('action-result-html').innerHTML();
    expect(/Refunded <strong>[\d.]+ €<\/strong>/.test(html), `the HTML result: ${html}`);
    await shot(p, 'action-result');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // `invalidated` reloaded the record: its status is now refunded.
    await p.getByText('refunded', { exact: true }).first().waitFor();
    expect(p.url().endsWith(`/data/orders/${id}`), 'still on the record');
  });

  await suite.test('a file result is downloaded', async () => {
    const id = await openOrderWithStatus(p, 'shipped');
    await openAction(p, 'Download invoice');
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByTestId('action-dialog').getByRole('button', { name: 'Download invoice' }).click(),
    ]);
    expect(
      download.suggestedFilename() === `invoice-${id}.txt`,
      `the file name: ${download.suggestedFilename()}`,
    );
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith(`Invoice for order ${id}`), `the file content: ${text}`);
    expect(text.includes('Status: shipped'), 'the invoice has the status');
  });

  await suite.test(
    'support requests an approval, the admin approves it, and the order is refunded',
    async () => {
      const other = await openBrowser();
      other.context.setDefaultTimeout(60_000);
      try {
        const { page: support } = await signIn(other.context, fixture, fixture.support);
        const id = await openOrderWithStatus(support, 'paid');
        await openAction(support, 'Refund order');
        const dialog = support.getByTestId('action-dialog');
        await dialog.getByRole('textbox', { name: 'Reason' }).click();
        await support.getByRole('option', { name: 'damaged', exact: true }).click();
        await dialog.getByRole('button', { name: 'Refund order' }).click();
        await support.getByTestId('approval-required').waitFor();
        await dialog.getByLabel('Comment for the approver').fill('Box arrived crushed');
        await dialog.getByRole('button', { name: 'Request approval' }).click();
        await support.getByTestId('approval-requested').waitFor();
        const requested = (await support.getByTestId('approval-requested').textContent()) ?? '';
        const approvalId = /#(\d+)/.exec(requested)?.[1];
        expect(approvalId !== undefined, `the request has an id: ${requested}`);
        await dialog.getByRole('button', { name: 'Close' }).click();
        // The order did not change yet.
        await support.getByText('paid', { exact: true }).first().waitFor();

        // The requester follows it under Approvals.
        await support.getByRole('link', { name: 'Approvals' }).click();
        // Mantine's segmented control hides its radio inputs: click the label.
        await support.locator('label', { hasText: 'My requests' }).click();
        const mine = support.getByTestId(`approval-${approvalId}`);
        await mine.waitFor();
        expect(
          (await mine.getByTestId('approval-status').textContent()) === 'pending',
          'pending for the requester',
        );

        // The admin reviews the queue and approves with a comment.
        await p.getByRole('link', { name: 'Approvals' }).click();
        const card = p.getByTestId(`approval-${approvalId}`);
        await card.waitFor();
        expect(
          (await card.textContent())?.includes('Box arrived crushed'),
          'the requester comment shows',
        );
        expect((await card.textContent())?.includes('damaged'), 'the requester values show');
        await card.getByLabel('Comment').fill('Refund approved');
        await shot(p, 'approval-queue');
        await card.getByRole('button', { name: 'Approve and run' }).click();
        await card
          .getByText(/Refunded/)
          .first()
          .waitFor();
        await p.locator('label', { hasText: /^All$/ }).click();
        await p.getByTestId(`approval-${approvalId}`).getByText('ran').waitFor();

        // The order changed, with the requester's values.
        await p.goto(new URL(`/Shop/Production/data/orders/${id}`, fixture.consoleUrl).toString());
        await p.getByRole('tab', { name: 'Details' }).waitFor();
        await p.getByText('refunded', { exact: true }).first().waitFor();

        // Both see the outcome: the requester's list says approved.
        await mine.getByText('approved', { exact: true }).waitFor({ timeout: 20_000 });
        expect(
          (await mine.textContent())?.includes('Refund approved'),
          'the approver comment reaches the requester',
        );
      } finally {
        await other.close();
      }
    },
  );
}
