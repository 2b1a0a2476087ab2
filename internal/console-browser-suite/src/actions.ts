/**
 * Actions and approvals in the browser (issue 21): a form with a field of each of the 14 types
 * and its input, dynamic search, the error, redirect and webhook results, a bulk action whose
 * dynamic form grows a field once the first one changes, a file result downloaded, a
 * single-record action showing its success HTML, and an approval requested by the support member
 * and approved by the admin, after which the order changed.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, signIn } from './suite';

/** Closes an action dialog a failed test left open, so that the next test starts clean. */
async function closeActionDialog(page: Page): Promise<void> {
  if (!(await page.getByTestId('action-dialog').count())) return;
  await page.keyboard.press('Escape');
  await page.getByTestId('action-dialog').waitFor({ state: 'detached' });
}

async function openAction(page: Page, name: string): Promise<void> {
  await closeActionDialog(page);
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
  await runFieldAndResultTests(suite, p, shot);
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
    const amount = await dialog.getByRole('textbox', { name: 'Amount' }).inputValue();
    // In euros, as the order's amounts are written everywhere (en-US: `€3,138.02`).
    expect(
      /^€\d{1,3}(,\d{3})*\.\d{2}$/.test(amount),
      `the amount defaults to the order total: ${amount}`,
    );
    await dialog.getByRole('button', { name: 'Refund order' }).click();
    await p.getByTestId('action-result-html').waitFor();
    const html = await p.getByTestId('action-result-html').innerHTML();
    expect(/Refunded <strong>€[\d,]+\.\d{2}<\/strong>/.test(html), `the HTML result: ${html}`);
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
        const { id, approvalId } = await requestRefundApproval(
          support,
          'damaged',
          'Box arrived crushed',
        );
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
        // The form's values read as they did in the form: the amount in euros.
        const filed = (await card.getByRole('row', { name: /Amount/ }).textContent()) ?? '';
        expect(/^Amount€\d{1,3}(,\d{3})*\.\d{2}$/.test(filed), `the filed amount: ${filed}`);
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

        // The order's activity has the request and the approval.
        const wanted = ['createApproval', 'approveApproval'];
        const actions = await recordActivity(p, id, wanted);
        expect(
          wanted.every((action) => actions.includes(action)),
          `the order's activity: ${actions.join(', ')}`,
        );
      } finally {
        await other.close();
      }
    },
  );

  await suite.test(
    'the admin rejects a request with a comment; the requester sees it, the order is unchanged',
    async () => {
      const other = await openBrowser();
      other.context.setDefaultTimeout(60_000);
      try {
        const { page: support } = await signIn(other.context, fixture, fixture.support);
        const { id, approvalId } = await requestRefundApproval(support, 'late');

        await p.getByRole('link', { name: 'Approvals' }).click();
        await p.locator('label', { hasText: 'To review' }).click();
        const card = p.getByTestId(`approval-${approvalId}`);
        await card.getByLabel('Comment').fill('Not late: delivered on time');
        await card.getByRole('button', { name: 'Reject' }).click();
        await card.getByTestId('approval-status').getByText('rejected').waitFor();

        await support.getByRole('link', { name: 'Approvals' }).click();
        await support.locator('label', { hasText: 'My requests' }).click();
        const mine = support.getByTestId(`approval-${approvalId}`);
        await mine.getByTestId('approval-status').getByText('rejected').waitFor();
        expect(
          (await mine.textContent())?.includes('Not late: delivered on time'),
          'the reason reaches the requester',
        );
        const actions = await recordActivity(p, id, ['createApproval', 'rejectApproval']);
        expect(
          actions.includes('rejectApproval') && !actions.includes('approveApproval'),
          `the order's activity: ${actions.join(', ')}`,
        );
        await p.getByRole('tab', { name: 'Details' }).click();
        await p.getByText('paid', { exact: true }).first().waitFor();
      } finally {
        await other.close();
      }
    },
  );
}

/**
 * As the support member: refunds a paid order with `reason`, which the Support role may only do
 * with an approval, and files the request (with `comment` for the approver). Returns the order's
 * id and the approval request's id, the dialog closed.
 */
export async function requestRefundApproval(
  support: Page,
  reason: string,
  comment?: string,
): Promise<{ id: string; approvalId: string }> {
  const id = await openOrderWithStatus(support, 'paid');
  await openAction(support, 'Refund order');
  const dialog = support.getByTestId('action-dialog');
  // The form says before submit that the role needs an approval; its button requests it.
  await dialog.getByTestId('approval-notice').waitFor();
  await dialog.getByRole('textbox', { name: 'Reason' }).click();
  await support.getByRole('option', { name: reason, exact: true }).click();
  if (comment) await dialog.getByLabel('Comment for the approver').fill(comment);
  await dialog.getByRole('button', { name: 'Request approval' }).click();
  await support.getByTestId('approval-requested').waitFor();
  const requested = (await support.getByTestId('approval-requested').textContent()) ?? '';
  const approvalId = /#(\d+)/.exec(requested)?.[1];
  expect(approvalId !== undefined, `the request has an id: ${requested}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { id, approvalId: approvalId! };
}

/** The actions of the order's activity tab, reloaded until `wanted` are there (logs are batched). */
async function recordActivity(page: Page, id: string, wanted: string[]): Promise<string[]> {
  let actions: string[] = [];
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await page.goto(
      new URL(`/Shop/Production/data/orders/${id}?tab=activity`, page.url()).toString(),
    );
    const table = page.getByRole('table', { name: 'Activity' });
    await table.or(page.getByText('No activity')).first().waitFor();
    actions = await table
      .locator('tbody tr td:nth-child(3) .mantine-Badge-label')
      .allTextContents();
    if (wanted.every((action) => actions.includes(action))) break;
    await page.waitForTimeout(1000);
  }
  return actions;
}

/**
 * The Mantine component of each input of the dialog, by field id (`data-field`): the nearest
 * `mantine-<Component>-root` around the element that carries the attribute.
 */
async function inputKinds(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('action-dialog').evaluate((dialog) =>
    Object.fromEntries(
      [...dialog.querySelectorAll('[data-field]')].map((element) => {
        let kind = '';
        for (let node: Element | null = element; node && !kind; node = node.parentElement) {
          kind =
            [...node.classList]
              .map((name) => /^mantine-(\w+)-root$/.exec(name)?.[1])
              .find((name) => name && name !== 'InputWrapper') ?? '';
        }
        return [element.getAttribute('data-field'), kind];
      }),
    ),
  );
}

/** The lines of the action's HTML result, `Field: kind value`, by field. */
async function resultLines(page: Page): Promise<Record<string, string>> {
  const items = await page.getByTestId('action-result-html').locator('li').allTextContents();
  return Object.fromEntries(
    items.map((item) => [item.slice(0, item.indexOf(':')), item.slice(item.indexOf(':') + 2)]),
  );
}

async function chooseFiles(
  page: Page,
  field: string,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('action-dialog').locator(`[data-field="${field}"]`).click(),
  ]);
  await chooser.setFiles(files);
}

async function runFieldAndResultTests(
  suite: Suite,
  p: Page,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  await suite.test(
    'a form with a field of each of the 14 types: each has its input, `if`, computed value, dropdowns',
    async () => {
      await openCollection(p, 'Products');
      // A global action: no selection needed.
      await openAction(p, 'Plan a promotion');
      const dialog = p.getByTestId('action-dialog');
      const field = (id: string) => dialog.locator(`[data-field="${id}"]`);
      await field('Title').waitFor();
      const kinds = await inputKinds(p);
      const expected: Record<string, string> = {
        Title: 'TextInput',
        Discount: 'NumberInput',
        Active: 'Switch',
        // Dates are typed or picked from a calendar (the console's date inputs).
        'Starts at': 'TextInput',
        'Ends on': 'TextInput',
        'Daily start': 'TimeInput',
        Channel: 'Select',
        Audiences: 'MultiSelect',
        Attachments: 'FileInput',
        Rules: 'JsonInput',
        'Featured customer': 'Select',
        'Product ids': 'TagsInput',
        Keywords: 'TagsInput',
        Supplier: 'Select',
        Warehouse: 'Select',
        Summary: 'TextInput',
        Preview: 'JsonInput',
      };
      expect(
        isDeepStrictEqual(kinds, expected),
        `the inputs: ${JSON.stringify(kinds)}, expected ${JSON.stringify(expected)}`,
      );
      // Description, required, the submit label.
      await dialog.getByText('Shown on the banner and in the e-mails.').waitFor();
      expect((await field('Title').getAttribute('required')) !== null, 'Title is required');
      expect(
        (await dialog.getByRole('button', { name: 'Schedule', exact: true }).count()) === 1,
        'the submit button has the action submit label',
      );
      // A required field left empty is named before anything is sent.
      await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
      await dialog.getByText('Title is required.').waitFor();
      // Defaults; the read-only field computed by the agent.
      expect((await field('Discount').inputValue()) === '10', 'the default discount');
      expect(await field('Active').isChecked(), 'the default switch value');
      // In the browser's locale (en-GB), as every date of the console reads.
      expect(
        (await field('Ends on').inputValue()) === '24/12/2026',
        `the default date: ${await field('Ends on').inputValue()}`,
      );
      // Read-only, at full contrast: not disabled.
      expect(
        !(await field('Summary').isEditable()) && !(await field('Summary').isDisabled()),
        'the computed summary is read-only',
      );
      expect(!(await field('Preview').isEditable()), 'the computed preview is read-only');
      expect(
        (await field('Summary').inputValue()) === 'Untitled: 10% off',
        `the computed value: ${await field('Summary').inputValue()}`,
      );

      await field('Title').fill('Winter sale');
      await field('Discount').fill('15');
      // The agent recomputes the summary from both (change hook).
      await p.waitForFunction(
        () =>
          (document.querySelector('[data-field="Summary"]') as HTMLInputElement | null)?.value ===
          'Winter sale: 15% off',
      );
      // A computed Json value is shown as the agent recomputes it.
      await p.waitForFunction(() =>
        (
          document.querySelector('[data-field="Preview"]') as HTMLTextAreaElement | null
        )?.value.includes('"title": "Winter sale"'),
      );
      await field('Active').dispatchEvent('click');
      await field('Daily start').fill('09:30');
      await field('Ends on')
        .locator('xpath=..')
        .getByRole('button', { name: 'Open the calendar' })
        .click();
      await p.getByRole('button', { name: '20 December 2026', exact: true }).click();
      expect(
        (await field('Ends on').inputValue()) === '20/12/2026',
        `the date picked: ${await field('Ends on').inputValue()}`,
      );

      // `if`: the banner image appears once the channel is banner.
      expect((await field('Banner image').count()) === 0, 'no banner image before a channel');
      await field('Channel').click();
      await p.getByRole('option', { name: 'banner', exact: true }).click();
      await field('Banner image').waitFor();
      expect((await inputKinds(p))['Banner image'] === 'FileInput', 'a file input');
      await chooseFiles(p, 'Banner image', [
        { name: 'banner.png', mimeType: 'image/png', buffer: Buffer.from('PNG!') },
      ]);
      await chooseFiles(p, 'Attachments', [
        { name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from('Terms apply.') },
        { name: 'faq.txt', mimeType: 'text/plain', buffer: Buffer.from('FAQ') },
      ]);

      // A multi-select without search: its text field is hidden, the pills box takes the click.
      await dialog.locator('.mantine-MultiSelect-input').click();
      await p.getByRole('option', { name: 'new', exact: true }).click();
      await p.getByRole('option', { name: 'vip', exact: true }).click();
      await dialog.getByText('Schedules a promotion of the shop.').click();
      await field('Rules').fill('{"minimumTotal": 80}');
      await field('Product ids').fill('3');
      await field('Product ids').press('Enter');
      await field('Product ids').fill('5');
      await field('Product ids').press('Enter');
      await field('Keywords').fill('winter');
      await field('Keywords').press('Enter');
      await field('Keywords').fill('gift');
      await field('Keywords').press('Enter');

      // The record picker searches customers.
      await field('Featured customer').click();
      const customer = p.getByRole('option').first();
      await customer.waitFor();
      const customerLabel = (await customer.textContent()) ?? '';
      const customerId = /#(\d+)$/.exec(customerLabel)?.[1];
      await customer.click();
      // Static search filters the options in the browser; search disabled is a plain select.
      await field('Supplier').click();
      await field('Supplier').fill('tex');
      const suppliers = await p.getByRole('option').allTextContents();
      expect(suppliers.join(',') === 'Indigo Textiles', `searched: ${suppliers.join(', ')}`);
      await p.getByRole('option', { name: 'Indigo Textiles' }).click();
      expect(
        (await field('Warehouse').getAttribute('readonly')) !== null,
        'the warehouse dropdown has no search',
      );
      await field('Warehouse').click();
      await p.getByRole('option', { name: 'Porto', exact: true }).click();
      await p.waitForFunction(
        () =>
          (document.querySelector('[data-field="Summary"]') as HTMLInputElement | null)?.value ===
          'Winter sale: 15% off by banner',
      );
      // The chosen record keeps its label once the change hook answered.
      expect(
        (await field('Featured customer').inputValue()) === customerLabel,
        `the record chosen: ${await field('Featured customer').inputValue()}, not ${customerLabel}`,
      );
      await shot(p, 'action-fields');

      await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
      await p
        .getByTestId('action-success')
        .getByText('Promotion “Winter sale” scheduled.')
        .waitFor();
      const got = await resultLines(p);
      const wanted: Record<string, string> = {
        Title: 'string Winter sale',
        Discount: 'number 15',
        Active: 'boolean false',
        'Starts at': 'string 2026-12-01T08:00:00.000Z',
        'Ends on': 'string 2026-12-20',
        'Daily start': 'string 09:30:00',
        Channel: 'string banner',
        Audiences: 'list ["new","vip"]',
        'Banner image': 'file banner.png (4 bytes)',
        Attachments: 'files terms.txt (12 bytes), faq.txt (3 bytes)',
        Rules: 'object {"minimumTotal":80}',
        'Featured customer': `list [${customerId}]`,
        'Product ids': 'list [3,5]',
        Keywords: 'list ["winter","gift"]',
        Supplier: 'string Indigo Textiles',
        Warehouse: 'string Porto',
        Summary: 'string Winter sale: 15% off by banner',
        Preview: 'object {"title":"Winter sale","discount":15}',
      };
      const wrong = Object.keys({ ...wanted, ...got }).filter((key) => got[key] !== wanted[key]);
      expect(
        wrong.length === 0,
        `what the agent received: ${wrong.map((key) => `${key}: ${got[key]} (expected ${wanted[key]})`).join('; ')}`,
      );
      await dialog.getByRole('button', { name: 'Close' }).click();
    },
  );

  await suite.test('a dynamic dropdown searched by the agent, then an error result', async () => {
    await openCollection(p, 'Products');
    await p.locator('tbody tr[data-record-id]').first().locator('td').nth(1).click();
    await p.getByRole('tab', { name: 'Details' }).waitFor();
    await openAction(p, 'Restock');
    const dialog = p.getByTestId('action-dialog');
    await dialog.getByRole('textbox', { name: 'Supplier' }).fill('bo');
    // The agent's search hook answers the suppliers matching what was typed.
    await p.getByRole('option', { name: 'Bois & Co', exact: true }).waitFor();
    await p.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 1);
    await p.getByRole('option', { name: 'Bois & Co', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Quantity' }).fill('0');
    await dialog.getByRole('button', { name: 'Restock', exact: true }).click();
    const error = p.getByTestId('action-error');
    await error.getByText('The quantity must be a positive whole number.').waitFor();
    // The form stays, to correct it.
    await dialog.getByRole('textbox', { name: 'Quantity' }).fill('4');
    await dialog.getByRole('button', { name: 'Restock', exact: true }).click();
    await p.getByText('Ordered 4 from Bois & Co.').waitFor();
  });

  await suite.test('a redirect result opens the URL; a webhook result is called', async () => {
    const context = p.context();
    await context.route('https://crm.example.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>CRM</title><h1>CRM</h1>' }),
    );
    const calls: { method: string; body: string | null }[] = [];
    await context.route('https://warehouse.example.com/**', (route) => {
      const request = route.request();
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
      };
      if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
      calls.push({ method: request.method(), body: request.postData() });
      return route.fulfill({ status: 202, headers: cors, body: '' });
    });
    try {
      await openCollection(p, 'Customers');
      const row = p.locator('tbody tr[data-record-id]').first();
      const customerId = (await row.getAttribute('data-record-id'))!;
      await row.locator('td').nth(1).click();
      await p.getByRole('tab', { name: 'Details' }).waitFor();
      await openAction(p, 'Open in CRM');
      const [crm] = await Promise.all([
        context.waitForEvent('page'),
        p.getByTestId('action-dialog').getByRole('button', { name: 'Open in CRM' }).click(),
      ]);
      await crm.waitForLoadState();
      expect(
        crm.url() === `https://crm.example.com/customers/${customerId}`,
        `redirected to ${crm.url()}`,
      );
      await crm.close();

      const orderId = await openOrderWithStatus(p, 'paid');
      await openAction(p, 'Notify warehouse');
      await p
        .getByTestId('action-dialog')
        .getByRole('button', { name: 'Notify warehouse' })
        .click();
      await p.getByText('Notify warehouse: the webhook answered 202.').waitFor();
      expect(
        calls.length === 1 &&
          calls[0]!.method === 'POST' &&
          isDeepStrictEqual(JSON.parse(calls[0]!.body ?? 'null'), { orderId: Number(orderId) }),
        `the webhook call: ${JSON.stringify(calls)}`,
      );
      // Clear the notification, which would otherwise sit on the next screenshots.
      for (const close of await p.locator('.mantine-Notification-closeButton').all()) {
        await close.click().catch(() => undefined);
      }
    } finally {
      await context.unroute('https://crm.example.com/**');
      await context.unroute('https://warehouse.example.com/**');
    }
  });
}
