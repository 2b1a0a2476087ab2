/**
 * Browser checks of the console for a whole working day (issue 31), in both personas: the
 * dashboard reads well (leaderboard labels that tell people apart, the smart chart drawn, compact
 * figure cards), the activity log shows each operation's outcome and hides reads until asked,
 * the sidebar counts the approval requests to review, a 390 px phone never scrolls sideways, the
 * console's scripts come compressed and cached for good, and axe-core finds no serious or
 * critical accessibility violation on the main pages, in the light and the dark theme.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { requestRefundApproval } from './actions';
import { checkFailedInActivityLog, checkFailedOnRecord, failRestock } from './activity-outcome';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** The reason the MCP server sends with the failed status (platform protocol §10). */
const MCP_REFUSAL = 'The carrier refused the parcel.';

/** The actions the activity log counts as reads (platform protocol). */
const READS = ['index', 'search', 'filter', 'listRelatedData', 'describeCollection'];

type Shot = (page: Page, name: string) => Promise<void>;
type SignIn = (context: BrowserContext, fixture: Fixture, user: User) => Promise<{ page: Page }>;

/** The main pages of the console, each with what shows that it is drawn. */
function mainPages(home: string, recordUrl: string, admin: boolean) {
  return [
    { name: 'list', url: `${home}/data/orders`, ready: 'tbody tr[data-record-id]' },
    { name: 'record', url: recordUrl, ready: '[data-field]' },
    { name: 'record-form', url: `${recordUrl}/edit`, ready: 'form' },
    { name: 'dashboard', url: `${home}/dashboard`, ready: '[data-chart-kind]' },
    // The activity log is the admins' (a member gets the platform's refusal in its place).
    {
      name: 'activity',
      url: `${home}/activity`,
      ready: '[data-testid="activity-row"], [data-testid="logs-empty"], [role="alert"]',
    },
    { name: 'approvals', url: `${home}/approvals`, ready: 'h2' },
    ...(admin ? [{ name: 'settings', url: `${home}/settings`, ready: '[role="tab"]' }] : []),
  ];
}

async function open(page: Page, url: string, ready: string): Promise<void> {
  await page.goto(url);
  await page.locator(ready).first().waitFor();
  // Late content (charts, lazy inputs) settles.
  await page.waitForTimeout(500);
}

/** A serious or critical violation axe-core finds on a page, at one element. */
interface Violation {
  rule: string;
  impact: string;
  target: string;
}

/** The serious and critical violations axe-core finds on the page, one per element. */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) =>
        violation.nodes.map((node) => ({
          rule: violation.id,
          impact: violation.impact!,
          target: JSON.stringify(node.target),
        })),
      );
  });
}

/** Whether the page is wider than the window (so that it scrolls sideways). */
const pageWidth = (page: Page) =>
  page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));

/** Checks the dashboard's leaderboard labels and smart chart as the page's user sees them. */
async function checkDashboard(page: Page, home: string): Promise<void> {
  await open(page, `${home}/dashboard`, '[data-chart-kind="leaderboard"]');
  const labels = await page
    .getByLabel('Top customers by orders', { exact: true })
    .locator('.chart-leaderboard-label')
    .evaluateAll((nodes) =>
      nodes.map((node) => ({ text: node.textContent ?? '', full: node.getAttribute('title') })),
    );
  expect(labels.length >= 2, `the leaderboard ranks customers: ${JSON.stringify(labels)}`);
  expect(
    new Set(labels.map((label) => label.text)).size === labels.length,
    `each label reads differently: ${labels.map((label) => label.text).join(' | ')}`,
  );
  for (const { text, full } of labels) {
    expect(full?.includes('@'), `the full e-mail is on hover: ${full}`);
    expect(
      !text.startsWith('@') && full!.startsWith(text.replace(/…$/, '').replace(/@$/, '')),
      `the label keeps the local part: "${text}" of ${full}`,
    );
  }
  const smart = page.getByLabel('Shop status (smart chart)', { exact: true });
  await smart.locator('[data-chart-kind="facts"]').waitFor();
  const text = (await smart.textContent()) ?? '';
  expect(
    text.includes('Out of stock') && !text.includes('{'),
    `the smart chart is drawn, not JSON: ${text}`,
  );
  // A figure's card holds the figure, not a 220 px plot's blank space.
  const height = await page
    .getByLabel('Revenue (vs. previous year)', { exact: true })
    .evaluate((node) => node.getBoundingClientRect().height);
  expect(height < 160, `the figure card is compact (${height} px)`);
}

/** Opens and closes a failed operation's log as the signed-in user (what an MCP server does). */
async function logFailedOperation(
  page: Page,
  fixture: Fixture,
  user: User,
  label: string,
): Promise<void> {
  const renderingId = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('canopy.console.session')!).renderingId as number,
  );
  const token = await fixture.mcpToken(user, renderingId);
  const answer = await page.evaluate(
    async ({ text, token, renderingId, reason }) => {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const created = await fetch('/api/activity-logs-requests/mcp', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          type: 'write',
          action: 'action',
          label: text,
          status: 'pending',
          records: ['1'],
          renderingId: String(renderingId),
          collectionModelName: 'orders',
        }),
      });
      if (!created.ok) return `create: ${created.status} ${await created.text()}`;
      const { data } = await created.json();
      const closed = await fetch(
        `/api/activity-logs-requests/${data.attributes.index}/${data.id}/status`,
        {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ status: 'failed', errorMessage: reason }),
        },
      );
      return closed.ok ? '' : `close: ${closed.status} ${await closed.text()}`;
    },
    { text: label, token, renderingId, reason: MCP_REFUSAL },
  );
  expect(answer === '', `the failed operation is logged: ${answer}`);
}

/** The action badges of the listed activity rows. */
const listedActions = (page: Page) =>
  page
    .locator('[data-testid="activity-row"] td:nth-child(3) .mantine-Badge-label')
    .allTextContents();

/** Checks the activity log: the failed operation reads as failed, reads hidden then shown. */
async function checkActivity(page: Page, home: string, failedLabel: string): Promise<void> {
  await open(page, `${home}/activity`, '[data-testid="activity-row"]');
  const failed = page.locator('[data-testid="activity-row"]', { hasText: failedLabel });
  await failed.waitFor();
  expect(
    (await failed.locator('.activity-outcome').textContent())?.trim() === 'Failed',
    'the failed operation is listed as failed',
  );
  const reason = (await failed.getByTestId('activity-reason').textContent())?.trim();
  expect(reason === MCP_REFUSAL, `the reason the MCP server sent is shown: ${reason}`);
  const writes = await listedActions(page);
  expect(
    writes.length > 0 && writes.every((action) => !READS.includes(action)),
    `reads are hidden by default: ${writes.join(', ')}`,
  );
  await page.getByRole('switch', { name: /Show reads/ }).click();
  await page.waitForFunction(
    (reads) =>
      [
        ...document.querySelectorAll(
          '[data-testid="activity-row"] td:nth-child(3) .mantine-Badge-label',
        ),
      ].some((node) => reads.includes(node.textContent ?? '')),
    READS,
  );
  // A read is logged once it succeeded.
  const read = page
    .locator('[data-testid="activity-row"]')
    .filter({ has: page.locator('td:nth-child(3) .mantine-Badge-label', { hasText: /^index$/ }) })
    .first();
  expect(
    (await read.getByTestId('activity-outcome').textContent())?.trim() === 'Succeeded',
    'a read reads as succeeded',
  );
}

export async function runDashboardPhoneTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  recordUrl: string,
  signIn: SignIn,
  shot: Shot,
): Promise<void> {
  recordUrl = recordUrl.split('?')[0]!;
  const home = recordUrl.replace(/\/data\/.*$/, '');
  const failedLabel = `Refund order (failed ${Date.now().toString(36)})`;
  const other = await openBrowser();
  other.context.setDefaultTimeout(60_000);
  let support: Page | undefined;
  try {
    await suite.test(
      'the dashboard tells leaderboard labels apart and draws the smart chart (both personas)',
      async () => {
        await fixture.seedDashboard();
        await p.setViewportSize({ width: 1280, height: 800 });
        await checkDashboard(p, home);
        await shot(p, 'dashboard-desktop');
        support = (await signIn(other.context, fixture, fixture.support)).page;
        await checkDashboard(support, home);
      },
    );

    await suite.test(
      'a failed operation reads as failed in Activity; reads are hidden until one click',
      async () => {
        await logFailedOperation(p, fixture, fixture.admin, failedLabel);
        await checkActivity(p, home, failedLabel);
        await shot(p, 'activity-desktop');
      },
    );

    await suite.test(
      'an action that fails in the console reads as failed with its reason in Activity (both personas)',
      async () => {
        if (!support) support = (await signIn(other.context, fixture, fixture.support)).page;
        await p.setViewportSize({ width: 1280, height: 800 });
        await failRestock(p);
        await checkFailedInActivityLog(p, home);
        await shot(p, 'activity-failed-light');
        await p.emulateMedia({ colorScheme: 'dark' });
        await shot(p, 'activity-failed-dark');
        await p.setViewportSize({ width: 390, height: 844 });
        const { scroll } = await pageWidth(p);
        expect(scroll <= 390, `the activity log fits a phone (${scroll} px)`);
        await shot(p, 'activity-failed-phone-dark');
        await p.setViewportSize({ width: 1280, height: 800 });
        await p.emulateMedia({ colorScheme: 'light' });
        const productUrl = await failRestock(support);
        await checkFailedOnRecord(support, productUrl, 'support');
        await shot(support, 'record-activity-failed-support');
        // The admin reads the same on the record.
        await checkFailedOnRecord(p, productUrl, 'admin');
      },
    );

    await suite.test(
      'the filter panel follows the dark theme, nested groups included (both personas)',
      async () => {
        if (!support) support = (await signIn(other.context, fixture, fixture.support)).page;
        for (const [who, page] of [
          ['admin', p],
          ['support', support],
        ] as const) {
          await page.emulateMedia({ colorScheme: 'dark' });
          await open(page, `${home}/data/orders`, 'tbody tr[data-record-id]');
          await page.getByRole('button', { name: 'Filter' }).click();
          await page.getByRole('button', { name: 'Add group' }).click();
          const nested = page.locator('[data-filter-depth="1"]');
          await nested.waitFor();
          const backgrounds = await page.evaluate(() =>
            ['[data-filter-depth="0"]', '[data-filter-depth="1"]', '.mantine-Popover-dropdown'].map(
              (selector) => getComputedStyle(document.querySelector(selector)!).backgroundColor,
            ),
          );
          // Dark means each channel well under the middle grey (Mantine's dark shades are ~0x2e).
          const light = backgrounds.filter((color) =>
            (color.match(/\d+/g) ?? []).slice(0, 3).some((channel) => Number(channel) > 0x60),
          );
          expect(light.length === 0, `${who}: dark filter panel backgrounds (${backgrounds})`);
          const violations = await axeViolations(page);
          expect(
            violations.length === 0,
            `${who}: the open filter panel has no serious violation: ${JSON.stringify(violations)}`,
          );
          await shot(page, `filter-panel-dark-${who}`);
          await page.keyboard.press('Escape');
          await page.emulateMedia({ colorScheme: 'light' });
        }
      },
    );

    await suite.test('the sidebar counts the approval requests the admin may review', async () => {
      if (!support) support = (await signIn(other.context, fixture, fixture.support)).page;
      await requestRefundApproval(support, 'late');
      await p.goto(`${home}/approvals`);
      const badge = p
        .getByRole('navigation', { name: 'Collections' })
        .getByTestId('pending-approvals');
      await badge.waitFor();
      await p.locator('[data-testid="approval-status"]').first().waitFor();
      const listed = await p.locator('[data-testid="approval-status"]').count();
      const count = Number(await badge.textContent());
      expect(count >= 1 && count === listed, `${count} in the sidebar, ${listed} to review`);
      await shot(p, 'approvals-pending-count');
      // The support member reviews nothing: no count.
      await support.goto(`${home}/approvals`);
      await support.getByRole('heading', { name: 'Approvals' }).waitFor();
      expect(
        !(await support.getByTestId('pending-approvals').count()),
        'no count for who reviews nothing',
      );
    });

    await suite.test(
      'at 390 px no main page scrolls sideways, and the record toolbar folds into a menu',
      async () => {
        const wide: string[] = [];
        for (const [who, page] of [
          ['admin', p],
          ['support', support],
        ] as const) {
          if (!page) throw new Error('the support member is not signed in');
          await page.setViewportSize({ width: 390, height: 844 });
          for (const { name, url, ready } of mainPages(home, recordUrl, who === 'admin')) {
            await open(page, url, ready);
            const { scroll } = await pageWidth(page);
            if (scroll > 390) wide.push(`${who} ${name}: ${scroll} px`);
            if (who === 'admin' || name === 'record') await shot(page, `phone-${who}-${name}`);
          }
          await open(page, recordUrl, '[data-field]');
          await page.getByRole('button', { name: 'More on this record' }).click();
          await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
          await page.keyboard.press('Escape');
          await page.setViewportSize({ width: 1280, height: 800 });
        }
        const phone = await openBrowser({ width: 390, height: 844 });
        try {
          const login = await phone.context.newPage();
          await login.goto(fixture.consoleUrl);
          await login.getByRole('heading', { name: 'Canopy Console' }).waitFor();
          const { scroll } = await pageWidth(login);
          if (scroll > 390) wide.push(`sign-in: ${scroll} px`);
          await shot(login, 'phone-sign-in');
        } finally {
          await phone.close();
        }
        expect(wide.length === 0, `pages wider than the phone: ${wide.join('; ')}`);
      },
    );

    await suite.test(
      "the console's scripts come compressed and cached for good, the first screen's under 250 kB",
      async () => {
        const html = await p.request.get(fixture.consoleUrl, { headers: { accept: 'text/html' } });
        expect(html.headers()['cache-control'] === 'no-cache', 'the page is revalidated');
        const page = await html.text();
        const scripts = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(
          (match) => match[1]!,
        );
        expect(scripts.length > 0, 'the page names its scripts');
        let gzipped = 0;
        for (const script of scripts) {
          const url = new URL(script, fixture.consoleUrl).toString();
          const brotli = await p.request.fetch(url, { headers: { 'accept-encoding': 'br' } });
          const headers = brotli.headers();
          expect(
            headers['content-encoding'] === 'br' || (await brotli.body()).length < 1024,
            `${script} is sent with brotli (${headers['content-encoding']})`,
          );
          expect(
            headers['cache-control']?.includes('immutable') &&
              headers['cache-control'].includes('max-age=31536000'),
            `${script} is cached for good: ${headers['cache-control']}`,
          );
          const gzip = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
          gzipped += Number(gzip.headers.get('content-length') ?? 0);
          await gzip.arrayBuffer();
        }
        console.log(`    first screen: ${scripts.length} scripts, ${gzipped} bytes gzipped`);
        expect(gzipped < 250_000, `the first screen's scripts weigh ${gzipped} bytes gzipped`);
      },
    );

    await suite.test(
      'axe-core finds no serious or critical violation on the main pages (both personas, light and dark)',
      async () => {
        const found: string[] = [];
        const sort = (where: string, violations: Violation[]) => {
          for (const violation of violations) {
            found.push(`${where}: ${violation.rule} (${violation.impact}) ${violation.target}`);
          }
        };
        // The system's theme, light then dark (the console follows it unless the user picked one).
        for (const scheme of ['light', 'dark'] as const) {
          for (const [who, page] of [
            ['admin', p],
            ['support', support],
          ] as const) {
            if (!page) throw new Error('the support member is not signed in');
            await page.emulateMedia({ colorScheme: scheme });
            for (const { name, url, ready } of mainPages(home, recordUrl, who === 'admin')) {
              await open(page, url, ready);
              sort(`${scheme} ${who} ${name}`, await axeViolations(page));
            }
            await page.emulateMedia({ colorScheme: 'light' });
          }
          const fresh = await openBrowser();
          try {
            const login = await fresh.context.newPage();
            await login.emulateMedia({ colorScheme: scheme });
            await login.goto(fixture.consoleUrl);
            await login.getByRole('heading', { name: 'Canopy Console' }).waitFor();
            sort(`${scheme} sign-in`, await axeViolations(login));
          } finally {
            await fresh.close();
          }
        }
        expect(
          found.length === 0,
          `${found.length} serious or critical violations:\n${found.join('\n')}`,
        );
      },
    );
  } finally {
    await other.close();
  }
}
