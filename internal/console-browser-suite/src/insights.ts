/**
 * Browser checks of the console's insights: the dashboard (a chart of each type, a chart built in
 * the UI, seen by a member of level `user`), notes on a record seen by a second user, and the
 * record's activity and the activity-log viewer.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';

const KINDS = [
  'value',
  'distribution',
  'time',
  'multiple-time',
  'percentage',
  'objective',
  'leaderboard',
  // The demo's smart chart answers named figures: they are listed as such.
  'facts',
];

/**
 * Gives the tab the user's platform token where the console keeps it, unless the console's own
 * sign-in already did.
 */
export async function withPlatformToken(page: Page, token: string): Promise<void> {
  await page.evaluate((value) => {
    if (!sessionStorage.getItem('canopy.console.platform')) {
      sessionStorage.setItem(
        'canopy.console.platform',
        JSON.stringify({ accessToken: value, expiresAt: Date.now() + 3_600_000 }),
      );
    }
  }, token);
}

async function select(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function chartsFailed(page: Page): Promise<string[]> {
  return page
    .getByText('This chart could not be computed')
    .evaluateAll((nodes) => nodes.map((node) => node.closest('[aria-label]')?.textContent ?? ''));
}

export async function runInsightsTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  recordUrl: string,
  signIn: (context: BrowserContext, fixture: Fixture, user: User) => Promise<{ page: Page }>,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  recordUrl = recordUrl.split('?')[0]!;
  const home = recordUrl.replace(/\/data\/.*$/, '');
  const noteTitle = `Refund asked ${Date.now().toString(36)}`;

  await suite.test('the dashboard draws a chart of each type from the agent', async () => {
    await fixture.seedDashboard();
    await withPlatformToken(p, fixture.platformToken(fixture.admin));
    await p.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await p.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    for (const kind of KINDS) await p.locator(`[data-chart-kind="${kind}"]`).first().waitFor();
    expect((await chartsFailed(p)).length === 0, `charts failed: ${await chartsFailed(p)}`);
    const orders = p.getByLabel('Orders', { exact: true });
    expect(
      /^\d[\d,. ]*$/.test((await orders.getByTestId('chart-value').textContent())?.trim() ?? ''),
      'the UI-built value chart shows a number',
    );
  });

  await suite.test('an admin adds a chart built in the UI, lays it out and saves', async () => {
    await p.getByRole('button', { name: 'Edit the dashboard' }).click();
    await p.getByRole('button', { name: 'Add a chart' }).click();
    const dialog = p.getByRole('dialog', { name: 'Add a chart' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Payments by method (built)');
    await select(p, 'Chart type', 'Distribution');
    await select(p, 'Collection', 'Payments');
    await select(p, 'Group by', 'Method');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.locator('[data-chart-kind="distribution"]').waitFor();
    await dialog.getByRole('button', { name: 'Add to the dashboard' }).click();
    await p.getByRole('button', { name: 'Remove Shop status (smart chart)' }).click();
    await p.getByRole('button', { name: 'Move Payments by method (built) earlier' }).click();
    await select(p, 'Width of Payments by method (built)', 'Full');
    await p.getByRole('button', { name: 'Save the dashboard' }).click();
    await p.getByText('Dashboard saved.').waitFor();
    await p.reload();
    const built = p.getByLabel('Payments by method (built)', { exact: true });
    await built.locator('[data-chart-kind="distribution"]').waitFor();
    const titles = await p
      .locator('.mantine-Grid-col > .mantine-Paper-root')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')));
    expect(
      titles.at(-2) === 'Payments by method (built)' &&
        titles.at(-1) === 'Customers (objective 6,000)',
      `moved one place earlier: ${titles.join(' | ')}`,
    );
    await shot(p, 'dashboard');
    // Full width: the chart's column spans the grid's row (the main area beside the sidebar).
    const [width, row] = await built.evaluate((node) => [
      node.parentElement!.getBoundingClientRect().width,
      node.closest('.mantine-Grid-inner')!.getBoundingClientRect().width,
    ]);
    expect(width > row * 0.95, `the full-width chart spans the row (${width} of ${row} px)`);
  });

  await suite.test('a note written on a record, with sanitized rich text', async () => {
    await p.goto(`${recordUrl}?tab=notes`);
    await withPlatformToken(p, fixture.platformToken(fixture.admin));
    await p.getByRole('textbox', { name: 'New note' }).fill(noteTitle);
    await p
      .getByRole('textbox', { name: 'Message' })
      .fill(`Customer called: **refund** the order.\n<img src=x onerror="window.__xss=1">`);
    await p.getByRole('button', { name: 'Add the note' }).click();
    const note = p.getByLabel(`Note ${noteTitle}`);
    await note.locator('strong', { hasText: 'refund' }).waitFor();
    expect(!(await p.evaluate(() => (window as { __xss?: number }).__xss)), 'no script ran');
    expect((await note.locator('img').count()) === 0, 'the typed tag stays text');
    await shot(p, 'notes');
  });

  await suite.test(
    'a member of level user sees the note, replies, and runs the UI-built charts',
    async () => {
      const other = await openBrowser();
      other.context.setDefaultTimeout(60_000);
      try {
        const { page: support } = await signIn(other.context, fixture, fixture.support);
        await withPlatformToken(support, fixture.platformToken(fixture.support));
        await support.goto(`${recordUrl}?tab=notes`);
        const note = support.getByLabel(`Note ${noteTitle}`);
        await note.locator('strong', { hasText: 'refund' }).waitFor();
        await note.getByRole('textbox', { name: `Reply to ${noteTitle}` }).fill('Done, refunded.');
        await note.getByRole('button', { name: 'Reply' }).click();
        const replied = await Promise.race([
          note
            .getByTestId('note-message')
            .filter({ hasText: 'Done, refunded.' })
            .waitFor()
            .then(() => ''),
          note
            .getByRole('alert')
            .waitFor()
            .then(async () => (await note.getByRole('alert').textContent()) ?? 'an error'),
        ]);
        expect(!replied, `the reply was refused: ${replied}`);

        await support.goto(`${home}/dashboard`);
        const built = support.getByLabel('Payments by method (built)', { exact: true });
        await built.locator('[data-chart-kind="distribution"]').waitFor();
        await support
          .getByLabel('Top customers by orders', { exact: true })
          .locator('[data-chart-kind="leaderboard"]')
          .waitFor();
        expect(
          (await chartsFailed(support)).length === 0,
          `refused: ${await chartsFailed(support)}`,
        );
        expect(
          !(await support.getByRole('button', { name: 'Edit the dashboard' }).count()),
          'members do not edit the dashboard',
        );
      } finally {
        await other.close();
      }
      // The admin sees the reply.
      await p.reload();
      await p
        .getByLabel(`Note ${noteTitle}`)
        .getByTestId('note-message')
        .filter({ hasText: 'Done, refunded.' })
        .waitFor();
    },
  );

  await suite.test("the record's activity shows the operations on it", async () => {
    await p.goto(`${recordUrl}?tab=activity`);
    await withPlatformToken(p, fixture.platformToken(fixture.admin));
    const wanted = ['update', 'createNote', 'createMessage'];
    let actions: string[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await p.getByRole('tab', { name: 'Activity', selected: true }).waitFor();
      const table = p.getByRole('table', { name: 'Activity' });
      if (await table.count()) {
        actions = await table
          .locator('tbody tr td:nth-child(3) .mantine-Badge-label')
          .allTextContents();
      }
      if (wanted.every((action) => actions.includes(action))) break;
      await p.waitForTimeout(1000);
      await p.reload();
    }
    expect(
      wanted.every((action) => actions.includes(action)),
      `activity of the record: ${actions.join(', ')}`,
    );
    await shot(p, 'record-activity');
  });

  await suite.test('the activity log filters, pages and exports', async () => {
    await p.getByRole('link', { name: 'Activity', exact: true }).click();
    await p.getByRole('heading', { name: 'Activity', exact: true }).waitFor();
    await p.getByRole('table', { name: 'Activity' }).waitFor();
    // Reads are hidden until asked for; with them, there are pages enough to page through.
    await p.getByLabel(/^Show reads/).check();
    // Keyset paging: 50 a page, older ones on demand, none twice.
    await p.getByTestId('activity-row').nth(49).waitFor();
    const firstPage = await p.getByTestId('activity-row').count();
    expect(firstPage === 50, `a first page of 50: ${firstPage}`);
    await p.getByRole('button', { name: 'Older activity' }).click();
    await p.getByTestId('activity-row').nth(50).waitFor();
    const ids = await p
      .getByTestId('activity-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-log-id')));
    expect(
      ids.every(Boolean) && new Set(ids).size === ids.length,
      `each log once across pages: ${ids.length} rows`,
    );
    await select(p, 'Action', 'createNote');
    await p.getByRole('button', { name: 'Apply' }).click();
    // Rows of the filtered answer only: at least one, and every one a createNote (an empty table
    // while the filtered page loads must not pass).
    await p.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="activity-row"]')];
      return rows.length > 0 && rows.every((row) => row.textContent?.includes('createNote'));
    });
    const rows = await p.getByTestId('activity-row').count();
    expect(rows >= 1, 'the createNote log is listed');
    await shot(p, 'activity');
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines.length === rows + 1, `CSV has a header and ${rows} rows: ${lines.length}`);
    expect(
      lines.slice(1).every((line) => line.includes('createNote')),
      'only createNote rows',
    );
    await p.getByRole('tab', { name: 'Admin log' }).click();
    await p.getByRole('table', { name: 'Admin log' }).waitFor();
  });

  await suite.test(
    "the environment's notes list the record's note; it is archived, then deleted",
    async () => {
      await p.getByRole('link', { name: 'Notes', exact: true }).click();
      await p.getByRole('heading', { name: 'Notes', exact: true }).waitFor();
      const note = p.getByLabel(`Note ${noteTitle}`);
      const recordId = recordUrl.split('/').at(-1);
      await note.getByText(`orders #${recordId}`).waitFor();
      await note.getByTestId('note-message').filter({ hasText: 'Done, refunded.' }).waitFor();
      await shot(p, 'notes-list');
      await note.getByRole('button', { name: 'Archive', exact: true }).click();
      await note.getByText('Archived', { exact: true }).waitFor();
      await select(p, 'Which notes', 'Open');
      await note.waitFor({ state: 'detached' });
      await select(p, 'Which notes', 'Archived');
      await note.waitFor();
      // Deleting asks first.
      await note.getByRole('button', { name: 'Delete', exact: true }).click();
      await p
        .getByRole('dialog', { name: `Delete the note “${noteTitle}”?` })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
      await note.waitFor({ state: 'detached' });
      await p.reload();
      await p.getByRole('heading', { name: 'Notes', exact: true }).waitFor();
      await p
        .getByText('No note here.')
        .or(p.getByLabel(/^Note /).first())
        .waitFor();
      expect(!(await note.count()), 'the note stays deleted');
      const stored = await fetch(
        new URL(
          `/v1/project/Shop/environment/Production/notes?collectionName=orders&recordId=${recordId}`,
          fixture.consoleUrl,
        ),
        { headers: { authorization: `Bearer ${fixture.platformToken(fixture.admin)}` } },
      );
      const body = (await stored.json()) as { data: { title: string }[] };
      expect(
        stored.ok && !body.data.some((item) => item.title === noteTitle),
        `the platform no longer has it: ${stored.status} ${JSON.stringify(body).slice(0, 200)}`,
      );
    },
  );
}
