/**
 * Bench (issue 32): a table laid out with 30 columns and display widgets, on 100-row pages. The
 * Console measures each page from the moment its data arrives to the painted frame with the rows
 * in view (`window.__canopyRenders`, the suite's test-hooks build). The same pages are measured
 * with the default layout (30 columns, one generic renderer per type), then with a published
 * layout giving the columns their widgets, in one run: the figures are the medians of each, and
 * their ratio. The target is rows in view painted within 100 ms of the data.
 *
 * Run: `pnpm --filter @canopy/console-browser-suite bench` (Chromium at /usr/bin/chromium or
 * CHROMIUM_PATH; the local PostgreSQL). Settings: BENCH_PAGES (measured pages per variant, 8),
 * BENCH_SCREENSHOTS (a folder for a picture of each variant), BENCH_PROFILE=1 (prints where the page
 * turns spend their CPU time).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleLayout, LayoutWidget } from '@canopy/platform-protocol';
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import { buildConsoleWithTestHooks } from './console-test-build';
import { startFixture } from './fixture';
import type { TestDatabase } from '@canopy/test-databases';
import { type CpuProfile, settle, signIn, topSelfTime } from './suite';

const PAGES = Number(process.env.BENCH_PAGES ?? 8);
const SCREENSHOTS = process.env.BENCH_SCREENSHOTS;
const PROFILE = process.env.BENCH_PROFILE === '1';
const ROWS = 1_200;
const TABLE = 'wide_items';

/** A 1×1 PNG: the image widget shows a data URI without a network round trip. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The 29 columns besides `id`, and the widget each one gets in the laid-out variant. */
const COLUMNS: [field: string, sql: string, widget?: LayoutWidget][] = [
  ['name', `'Item ' || n`],
  [
    'status',
    `(ARRAY['new','paid','late'])[1 + n % 3]::wide_status`,
    { type: 'badge', settings: { colours: { new: '#1c7ed6', paid: '#2f9e44', late: '#e03131' } } },
  ],
  ['email', `'buyer' || n || '@shop.example'`, { type: 'email' }],
  [
    'website',
    `'https://shop.example/items/' || n`,
    { type: 'url', settings: { openInNewTab: true } },
  ],
  ['phone', `'+33 1 23 45 ' || lpad((n % 100)::text, 2, '0') || ' 00'`, { type: 'phone' }],
  ['image_url', `'${PIXEL}'`, { type: 'image', settings: { height: 24 } }],
  ['notes', `'**Item ' || n || '** ships in _' || (n % 9 + 1) || ' days_'`, { type: 'markdown' }],
  [
    'description',
    `repeat('A long description. ', 4)`,
    { type: 'long-text', settings: { rows: 2 } },
  ],
  ['price', `(n % 500) + 0.99`, { type: 'currency', settings: { currency: 'EUR' } }],
  ['cost', `(n % 300) + 0.5`, { type: 'currency', settings: { currency: 'USD', decimals: 0 } }],
  ['discount', `(n % 40) / 100.0`, { type: 'percentage', settings: { ratio: true, decimals: 1 } }],
  ['progress', `n % 101`, { type: 'progress', settings: { max: 100 } }],
  ['rating', `n % 6`, { type: 'rating', settings: { max: 5 } }],
  ['stock', `n * 37`, { type: 'number', settings: { format: 'grouped' } }],
  ['weight', `(n % 70) / 3.0`, { type: 'number', settings: { decimals: 2, suffix: ' kg' } }],
  ['active', `n % 2 = 0`, { type: 'switch', settings: { trueLabel: 'On', falseLabel: 'Off' } }],
  [
    'colour',
    `'#' || lpad(to_hex((n::bigint * 2654435 % 16777216)::int), 6, '0')`,
    { type: 'colour' },
  ],
  ['duration_s', `n * 13 % 86400`, { type: 'duration', settings: { unit: 'seconds' } }],
  ['created_at', `now() - make_interval(hours => n)`, { type: 'relative-time' }],
  [
    'updated_at',
    `now() - make_interval(mins => n)`,
    { type: 'datetime', settings: { format: 'dd/MM/yyyy HH:mm' } },
  ],
  ['shipped_at', `now() - make_interval(days => n % 30)`, { type: 'relative-time' }],
  ['data', `jsonb_build_object('n', n, 'tags', jsonb_build_array('a', 'b'))`, { type: 'json' }],
  ['country', `(ARRAY['FR','DE','ES','IT'])[1 + n % 4]`],
  ['city', `(ARRAY['Paris','Berlin','Madrid','Rome'])[1 + n % 4]`],
  [
    'code',
    `'IT-' || n`,
    { type: 'link', settings: { urlTemplate: 'https://shop.example/{{code}}', label: 'Open' } },
  ],
  ['score', `(n % 100) / 100.0`, { type: 'percentage', settings: { ratio: true } }],
  ['views', `n * 1013`, { type: 'number', settings: { format: 'compact' } }],
  ['priority', `n % 5`],
  ['tags', `'tag' || (n % 7)`],
];

/** The shop database gains a 30-column table of {@link ROWS} rows before the agent starts. */
async function createWideTable(knex: TestDatabase['knex']): Promise<void> {
  const types: Record<string, string> = {
    status: 'wide_status',
    price: 'numeric(10,2)',
    cost: 'numeric(10,2)',
    discount: 'numeric(5,4)',
    score: 'numeric(5,4)',
    progress: 'integer',
    rating: 'integer',
    stock: 'integer',
    weight: 'double precision',
    active: 'boolean',
    duration_s: 'integer',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    shipped_at: 'timestamptz',
    data: 'jsonb',
    views: 'bigint',
    priority: 'integer',
  };
  await knex.raw(`CREATE TYPE wide_status AS ENUM ('new', 'paid', 'late')`);
  await knex.raw(
    `CREATE TABLE ${TABLE} (id serial PRIMARY KEY, ${COLUMNS.map(
      ([field]) => `${field} ${types[field] ?? 'text'} NOT NULL`,
    ).join(', ')})`,
  );
  await knex.raw(
    `INSERT INTO ${TABLE} (${COLUMNS.map(([field]) => field).join(', ')})
     SELECT ${COLUMNS.map(([, sql]) => sql).join(', ')} FROM generate_series(1, ${ROWS}) AS n`,
  );
}

/** A layout of the table's 30 columns in order, with their widgets or without. */
function layout(widgets: boolean): ConsoleLayout {
  return {
    collections: {
      [TABLE]: {
        table: { columns: [{ field: 'id' }, ...COLUMNS.map(([field]) => ({ field }))] },
        fields: widgets
          ? Object.fromEntries(
              COLUMNS.filter(([, , widget]) => widget).map(([field, , widget]) => [
                field,
                { display: widget! },
              ]),
            )
          : {},
      },
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Publishes `layout` for the admin's team, opens the table at 100 rows a page (a new load: the
 * layout is read when the workspace opens), then measures {@link PAGES} page turns after a warm-up.
 */
async function measurePages(page: Page, label: string, laidOut: ConsoleLayout): Promise<number[]> {
  await fixture.manage('PUT', `${team}/layout/draft`, { layout: laidOut });
  await fixture.manage('POST', `${team}/layout/publish`);
  await page.goto(
    `${fixture.consoleUrl}/${fixture.project}/${fixture.environment}/data/${TABLE}?size=100`,
  );
  await page.locator('tbody tr[data-record-id]').first().waitFor();
  await settle(page);
  const columns = await page.locator('thead th').count();
  const times: number[] = [];
  const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  for (let turn = 0; turn <= PAGES; turn += 1) {
    const before = await page.evaluate(() => window.__canopyRenders?.length ?? 0);
    await page.getByRole('button', { name: 'next page' }).click();
    await settle(page);
    await page.waitForFunction(
      (count) => (window.__canopyRenders ?? []).slice(count).some((render) => render.rows === 100),
      before,
    );
    const render = await page.evaluate(
      (count) =>
        window
          .__canopyRenders!.slice(count)
          .filter((r) => r.rows === 100)
          .at(-1)!,
      before,
    );
    // The first turn loads what the page needs once (lazy widgets, fonts): not measured.
    if (turn > 0) times.push(render.ms);
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    console.log(`  ${label}, top self time: ${topSelfTime(profile as CpuProfile, 15)}`);
    await cdp.detach();
  }
  if (SCREENSHOTS) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `wide-table-${label}.png`) });
    // And the columns at the far right of the table.
    await page.locator('table[data-view]').evaluate((table) => {
      for (let box = table.parentElement; box; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth) box.scrollLeft = box.scrollWidth;
      }
    });
    await page.screenshot({ path: join(SCREENSHOTS, `wide-table-${label}-right.png`) });
  }
  console.log(
    `  ${label}: ${columns} header cells, ${times.map((ms) => ms.toFixed(0)).join(' ')} ms`,
  );
  return times;
}

console.log(await buildConsoleWithTestHooks());
const fixture = await startFixture('canopy', { prepareShop: createWideTable });
const browser = await openBrowser({ width: 1600, height: 900 });
const team = `/v1/project/${fixture.project}/environment/${fixture.environment}/teams/${fixture.admin.team}`;
try {
  browser.context.setDefaultTimeout(60_000);
  const { page } = await signIn(browser.context, fixture, fixture.admin);
  const plain = await measurePages(page, '30 columns without widgets', layout(false));
  const laidOut = await measurePages(page, '30 columns with widgets', layout(true));
  const [withWidgets, without] = [median(laidOut), median(plain)];
  console.log(
    `100-row page, rows in view painted after the data arrived (median of ${PAGES}): ` +
      `${withWidgets.toFixed(1)} ms with ${COLUMNS.filter(([, , widget]) => widget).length} ` +
      `widgets, ${without.toFixed(1)} ms without; ratio ${(withWidgets / without).toFixed(2)}; ` +
      (withWidgets <= 100 ? 'within the 100 ms target' : 'OVER the 100 ms target'),
  );
} finally {
  await browser.close();
  await fixture.close();
}
