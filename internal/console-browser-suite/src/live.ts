/**
 * A Console that is live (issue 33), with two people side by side in two browsers: Ada (the
 * admin) and Bob (the support member). Ada's edit of a record Bob has open reaches Bob as a
 * notice with the difference within 2 s; Bob's save over a stale form is refused by the agent and
 * offered as a merge; a mention typed with `@` autocompletion lands in Bob's inbox; an approval
 * request Bob files appears on Ada's approvals page without a reload. Canopy's agent only: the
 * reference agent sends neither record changes nor entity tags.
 */
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { requestRefundApproval } from './actions';
import { openCollection, signIn } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;

/** Opens the edit form of the record open on `page` and waits for its fields. */
async function openEditForm(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await page.getByRole('heading', { name: /^Edit/ }).waitFor();
  await page.getByRole('textbox', { name: 'First name', exact: true }).waitFor();
}

/** The agent's answer to the next save of a customer from `page`. */
function customerSaved(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' && /\/forest\/customers\/\d+/.test(response.url()),
  );
}

export async function runLiveTests(suite: Suite, fixture: Fixture, shot: Shot): Promise<void> {
  if (fixture.agentKind !== 'canopy') return;
  const adaBrowser = await openBrowser();
  const bobBrowser = await openBrowser();
  adaBrowser.context.setDefaultTimeout(60_000);
  bobBrowser.context.setDefaultTimeout(60_000);
  try {
    let ada: Page | undefined;
    let bob: Page | undefined;
    let recordPath = '';
    await suite.test('live: Ada and Bob open the same customer side by side', async () => {
      ada = (await signIn(adaBrowser.context, fixture, fixture.admin)).page;
      bob = (await signIn(bobBrowser.context, fixture, fixture.support)).page;
      // A customer Bob's team may see.
      await openCollection(bob, 'Customers');
      await bob.locator('tbody tr[data-record-id]').first().locator('td').nth(1).click();
      await bob.waitForURL(/\/data\/customers\/\d+$/);
      await bob.getByRole('tab', { name: 'Details' }).waitFor();
      recordPath = new URL(bob.url()).pathname;
      await ada.goto(new URL(recordPath, fixture.consoleUrl).toString());
      await ada.getByRole('tab', { name: 'Details' }).waitFor();
      // Each sees the other among those who have the record open.
      await bob.getByTestId('record-presence').getByLabel(/./).first().waitFor();
      await ada.getByTestId('record-presence').waitFor();
      await shot(bob, 'live-presence');
    });
    if (!ada || !bob) return;
    const a = ada;
    const b = bob;

    await suite.test(
      'live: Ada edits the customer Bob has open; Bob sees who and what changed within 2 s',
      async () => {
        const before =
          (await b.locator('[data-field="first_name"] > :last-child').textContent())?.trim() ?? '';
        const name = `Ada${Date.now() % 100000}`;
        await openEditForm(a);
        await a.getByRole('textbox', { name: 'First name', exact: true }).fill(name);
        const saved = customerSaved(a);
        await a.getByRole('button', { name: 'Save changes' }).click();
        expect((await saved).ok(), 'Ada’s save went through');
        const savedAt = Date.now();
        const notice = b.getByTestId('record-changed-notice');
        await notice.getByText(name, { exact: true }).waitFor({ timeout: 10_000 });
        const ms = Date.now() - savedAt;
        console.log(`    (Ada's save reached Bob's page in ${ms} ms)`);
        expect(ms < 2000, `Bob saw the change within 2 s (${ms} ms)`);
        const text = (await notice.textContent()) ?? '';
        expect(/Changed by .+ just now/.test(text), `who changed it: ${text}`);
        expect(!text.includes('Another member'), `Ada is named: ${text}`);
        expect(text.includes('First name:'), `the field's label: ${text}`);
        expect(
          before !== '' && text.includes(`First name:${before}→${name}`),
          `before → after: ${text}`,
        );
        await shot(b, 'live-record-changed');
        await notice.getByRole('button', { name: 'Reload the record' }).click();
        await b.locator('[data-field="first_name"]').getByText(name).waitFor();
        await notice.waitFor({ state: 'detached' });
      },
    );

    await suite.test(
      'live: Bob’s save over a stale form is refused and offered as a merge',
      async () => {
        await openEditForm(b);
        const theirs = `Ada${Date.now() % 100000}b`;
        const mine = `Bob${Date.now() % 100000}`;
        // Ada saves while Bob's form is open.
        await a.goto(new URL(recordPath, fixture.consoleUrl).toString());
        await openEditForm(a);
        // Edit forms announce and show presence too: Ada's form shows Bob, whose form is open.
        await a.getByTestId('record-presence').getByRole('img', { name: /./ }).first().waitFor();
        await shot(a, 'live-presence-edit-form');
        await a.getByRole('textbox', { name: 'First name', exact: true }).fill(theirs);
        await a.getByRole('button', { name: 'Save changes' }).click();
        await a.waitForURL(/\/data\/customers\/\d+$/);
        // Bob's change of the same field, over what he loaded before.
        await b.getByRole('textbox', { name: 'First name', exact: true }).fill(mine);
        const refused = customerSaved(b);
        await b.getByRole('button', { name: 'Save changes' }).click();
        const answer = await refused;
        expect(answer.status() === 412, `the agent refused the stale save: ${answer.status()}`);
        expect(
          (await answer.request().headerValue('if-match'))?.startsWith('"'),
          'the save carried the tag Bob loaded',
        );
        const dialog = b.getByTestId('merge-dialog');
        const row = dialog.getByTestId('conflict-first_name');
        await row.getByText(theirs).waitFor();
        await row.getByText(mine).waitFor();
        await b.waitForTimeout(300); // The dialog fades in.
        await shot(b, 'live-merge-dialog');
        // Bob keeps his value; the merge is saved with the fresh tag.
        await row.getByRole('radio', { name: 'Your First name' }).check();
        const again = customerSaved(b);
        await dialog.getByRole('button', { name: 'Save the merge' }).click();
        expect((await again).status() === 200, 'the merged save went through');
        await b.waitForURL(/\/data\/customers\/\d+$/);
        await b.locator('[data-field="first_name"]').getByText(mine).waitFor();
        // Ada, on the record, hears of Bob's write.
        await a
          .getByTestId('record-changed-notice')
          .getByText(mine, { exact: true })
          .waitFor({ timeout: 10_000 });
      },
    );

    await suite.test(
      'live: Bob’s customer list says a record changed; Refresh reloads it',
      async () => {
        const id = recordPath.split('/').pop()!;
        await openCollection(b, 'Customers');
        const row = b.locator(`tbody tr[data-record-id="${id}"]`);
        await row.waitFor();
        const name = `Ada${Date.now() % 100000}c`;
        await a.goto(new URL(recordPath, fixture.consoleUrl).toString());
        await openEditForm(a);
        await a.getByRole('textbox', { name: 'First name', exact: true }).fill(name);
        await a.getByRole('button', { name: 'Save changes' }).click();
        await a.waitForURL(/\/data\/customers\/\d+$/);
        const notice = b.getByTestId('live-list-notice');
        await notice.getByText('1 record changed').waitFor({ timeout: 5000 });
        expect(!(await row.textContent())?.includes(name), 'the list is not reloaded by itself');
        await shot(b, 'live-list-notice');
        await notice.getByRole('button', { name: 'Refresh' }).click();
        await row.getByText(name).first().waitFor();
        await notice.waitFor({ state: 'detached' });
        // Back to the record for the next test.
        await b.goto(new URL(recordPath, fixture.consoleUrl).toString());
        await b.getByRole('tab', { name: 'Details' }).waitFor();
      },
    );

    await suite.test('live: a mention typed with @ reaches Bob’s inbox', async () => {
      await b.getByTestId('inbox-bell').waitFor();
      const unreadBefore = (await b.getByTestId('inbox-bell').getAttribute('aria-label')) ?? '';
      await a.getByRole('tab', { name: 'Notes' }).click();
      const title = `Check the address ${Date.now() % 100000}`;
      await a.getByLabel('New note').fill(title);
      const message = a.getByRole('textbox', { name: 'Message' });
      await message.click();
      await message.pressSequentially('Please look @gra');
      const list = a.getByRole('listbox', { name: 'Members to mention' });
      await list.getByRole('option', { name: /support@shop\.example/ }).waitFor();
      await shot(a, 'live-mention-autocomplete');
      // Arrows move, Escape closes, Enter picks.
      await a.keyboard.press('Escape');
      await list.waitFor({ state: 'hidden' });
      await message.pressSequentially('c');
      await list.waitFor();
      await a.keyboard.press('ArrowDown');
      await a.keyboard.press('ArrowUp');
      await a.keyboard.press('Enter');
      await message.pressSequentially('today');
      const typed = await message.inputValue();
      expect(
        typed === 'Please look @support@shop.example today',
        `the mention is inserted: ${typed}`,
      );
      await a.getByRole('button', { name: 'Add the note' }).click();
      await a.getByText(title).waitFor();
      // Bob's bell counts it, with no reload.
      await b.waitForFunction(
        (before) => {
          const label = document
            .querySelector('[data-testid="inbox-bell"]')
            ?.getAttribute('aria-label');
          return label && label !== before && /unread/.test(label);
        },
        unreadBefore,
        { timeout: 5000 },
      );
      await b.getByTestId('inbox-bell').click();
      const item = b.getByTestId('inbox-item').filter({ hasText: title });
      await item.waitFor();
      expect((await item.getAttribute('data-unread')) === 'true', 'unread until opened');
      expect(/mentioned you/.test((await item.textContent()) ?? ''), 'a mention');
      await b.waitForTimeout(300);
      await shot(b, 'live-inbox');
      await item.click();
      await b.waitForURL(/tab=notes/);
      await b.getByText(title).waitFor();
      await b.getByTestId('inbox-bell').click();
      await b
        .getByTestId('inbox-item')
        .filter({ hasText: title })
        .and(b.locator(':not([data-unread])'))
        .waitFor();
      await b.keyboard.press('Escape');
    });

    await suite.test(
      'live: an approval request appears on the approver’s page with no reload',
      async () => {
        await a.getByRole('link', { name: 'Approvals' }).click();
        await a.getByRole('heading', { name: 'Approvals' }).waitFor();
        await a.locator('label', { hasText: 'To review' }).click();
        // A reload would lose this mark.
        await a.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
        const polls: string[] = [];
        const onRequest = (request: { method(): string; url(): string }) => {
          const url = request.url();
          if (request.method() === 'GET' && /\/api\/action-approvals|\/v1\/me\/projects/.test(url))
            polls.push(url);
        };
        a.on('request', onRequest);
        try {
          // With the stream up nothing is polled: the page used to read the list every 5 s,
          // and the rights too.
          await a.waitForTimeout(6000);
          expect(polls.length === 0, `no approvals poll while the stream is up: ${polls.length}`);
          const { approvalId } = await requestRefundApproval(b, 'damaged', 'Live check');
          const card = a.getByTestId(`approval-${approvalId}`);
          await card.waitFor({ timeout: 5000 });
          expect(
            await a.evaluate(() => (window as unknown as { liveMark?: number }).liveMark === 1),
            'the page was not reloaded',
          );
          expect(polls.length >= 1, 'the list was read again on the event');
          await shot(a, 'live-approval-arrived');
        } finally {
          a.off('request', onRequest);
        }
      },
    );
  } finally {
    await adaBrowser.close();
    await bobBrowser.close();
  }
}
