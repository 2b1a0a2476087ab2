/**
 * CSV import (issue 32): the admin drops a 1,000-record file of reviews with three bad records;
 * the dry run names them by line, the import creates the 997 others (counted on the agent), the
 * summary says 3 failed and hands them back as a CSV. The support member, whose role may not
 * create reviews here, gets no import, not even by its address. Only ordinary protocol routes,
 * so both agents run it; the imported reviews are deleted afterwards (other checks read reviews).
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { AgentClient, leaf } from '@canopy/console';
import { openBrowser } from './browser';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, signIn } from './suite';

type Shot = (page: Page, name: string) => Promise<void>;
type Rights = { collections?: Record<string, Record<string, unknown>>; actions?: unknown };

const RECORDS = 1000;
/** The bad records (1-based) and the line each starts on: record 10 spans two lines. */
const BAD = { 50: 52, 500: 502, 900: 902 } as Record<number, number>;

/** The file: Id (read-only, ignored), the two relations by id, a rating, a comment, a date. */
function reviewsCsv(marker: string): string {
  const rows = Array.from({ length: RECORDS }, (_, index) => {
    const n = index + 1;
    return {
      Id: String(100_000 + n),
      Product: n === 500 ? '99999999' : String(1 + (n % 300)),
      Customer: String(1 + (n % 4000)),
      Rating: n === 50 ? 'five' : String(1 + (n % 5)),
      Comment: n === 10 ? `${marker} #${n}\nwritten on two lines` : `${marker} #${n}`,
      'Created at':
        n === 900
          ? 'soon'
          : `2025-0${1 + (n % 9)}-1${n % 10} 10:${String(n % 60).padStart(2, '0')}`,
    };
  });
  return Papa.unparse(rows);
}

async function agentClient(page: Page, fixture: Fixture): Promise<AgentClient> {
  const token = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}').token as string,
  );
  return new AgentClient({ baseUrl: fixture.agentUrl, timezone: 'UTC', getToken: () => token });
}

export async function runCsvImportTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: Shot,
): Promise<void> {
  await suite.test(
    'CSV import: 1,000 reviews with 3 bad records → the dry run names their lines, 997 are created',
    async () => {
      const marker = `CSV import ${Date.now()}`;
      const mine = leaf('comment', 'starts_with', marker);
      const client = await agentClient(p, fixture);
      try {
        await openCollection(p, 'Reviews');
        await shot(p, 'import-toolbar');
        await p.getByRole('link', { name: 'Import CSV' }).click();
        await p.getByRole('heading', { name: 'Import reviews from a CSV file' }).waitFor();
        await shot(p, 'import-file');
        // Dropped on the page, as from the desktop.
        const drop = await p.evaluateHandle((text) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([text], 'reviews.csv', { type: 'text/csv' }));
          return transfer;
        }, reviewsCsv(marker));
        await p.getByTestId('import-drop-zone').dispatchEvent('drop', { dataTransfer: drop });

        const field = (column: string) =>
          p.getByRole('textbox', { name: `Field for the column ${column}`, exact: true });
        await field('Rating').waitFor();
        const mapped = {
          Id: 'Ignore this column',
          Product: 'Product (Products id) *',
          Customer: 'Customer (Customers id) *',
          Rating: 'Rating *',
          Comment: 'Comment',
          'Created at': 'Created at *',
        };
        for (const [column, expected] of Object.entries(mapped)) {
          const value = await field(column).inputValue();
          expect(value === expected, `${column} is matched to ${expected}: ${value}`);
        }
        await p.getByText('Id is read-only: ignored.').waitFor();
        await shot(p, 'import-mapping');

        await p.getByRole('button', { name: 'Check 1,000 records' }).click();
        const dryRun = p.getByTestId('import-dry-run');
        await dryRun.waitFor();
        const said = (await dryRun.textContent()) ?? '';
        expect(
          said.includes('997 records are ready to import; 3 records have problems'),
          `the dry run: ${said}`,
        );
        const lines = await p
          .locator('[data-testid="import-problems"] tbody tr')
          .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-line'))));
        expect(
          JSON.stringify(lines) === JSON.stringify(Object.values(BAD)),
          `the problems by line: ${lines.join(', ')}`,
        );
        const problems = (await p.getByTestId('import-problems').textContent()) ?? '';
        expect(
          problems.includes('“five” is not a number') &&
            problems.includes('no record #99999999 exists') &&
            problems.includes('“soon” is not a date'),
          `the problems in words: ${problems}`,
        );
        expect((await client.list('reviews', { filters: mine })).length === 0, 'nothing created');
        await shot(p, 'import-dry-run');

        const started = Date.now();
        await p.getByRole('button', { name: 'Import 997 reviews' }).click();
        const summary = p.getByTestId('import-summary');
        await summary.waitFor({ timeout: 180_000 });
        const created = await p.getByTestId('import-created').textContent();
        const failed = await p.getByTestId('import-failed').textContent();
        expect(created?.startsWith('997'), `created: ${created}`);
        expect(failed?.startsWith('3'), `failed: ${failed}`);
        console.log(`    (997 reviews created in ${Date.now() - started} ms)`);
        await shot(p, 'import-summary');

        const onAgent = await client.list('reviews', {
          fields: ['id', 'comment'],
          filters: mine,
          page: { number: 1, size: RECORDS },
        });
        expect(onAgent.length === 997, `the agent has ${onAgent.length} imported reviews`);
        const twoLines = onAgent.find(
          (r) => r.values.comment === `${marker} #10\nwritten on two lines`,
        );
        expect(twoLines, 'a quoted line break is kept in the value');

        const [download] = await Promise.all([
          p.waitForEvent('download'),
          p.getByRole('button', { name: 'Download the failed rows (CSV)' }).click(),
        ]);
        const back = Papa.parse<Record<string, string>>(
          readFileSync(await download.path(), 'utf8'),
          { header: true, skipEmptyLines: true },
        ).data;
        expect(
          back.map((row) => row['Import line']).join(',') === '52,502,902' &&
            back[0]!.Rating === 'five' &&
            back.every((row) => row['Import problem']),
          `the failed rows file: ${JSON.stringify(back.map((row) => [row['Import line'], row['Import problem']]))}`,
        );

        // A record the dry run cannot fault, which the database refuses (a rating above 5): the
        // summary gives the agent's answer for its line.
        await p.getByRole('button', { name: 'Import another file' }).click();
        await p.locator('input[type="file"]').setInputFiles({
          name: 'more-reviews.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            Papa.unparse(
              [
                { Product: '1', Customer: '1', Rating: '9', Comment: `${marker} #refused` },
                { Product: '2', Customer: '2', Rating: '4', Comment: `${marker} #accepted` },
              ].map((row) => ({ ...row, 'Created at': '2025-01-01 10:00' })),
            ),
          ),
        });
        await p.getByRole('button', { name: 'Check 2 records' }).click();
        await p.getByRole('button', { name: 'Import 2 reviews' }).click();
        await summary.waitFor();
        const refused = p.locator('[data-testid="import-problems"] tbody tr');
        const agentSaid = (await refused.textContent()) ?? '';
        expect(
          (await p.getByTestId('import-created').textContent())?.startsWith('1') &&
            (await refused.count()) === 1 &&
            (await refused.getAttribute('data-line')) === '2',
          `the agent's refusal by line: ${agentSaid}`,
        );
        console.log(`    (the agent's refusal, as the summary says it: ${agentSaid})`);
        await shot(p, 'import-agent-refusal');
      } finally {
        // Other checks read the reviews: the imported ones go.
        await client.remove('reviews', { ids: [], allRecords: true, filters: mine });
      }
    },
  );

  await suite.test('CSV import: a role that may not create reviews gets no import', async () => {
    const path = '/v1/project/Shop/roles/Support';
    const details = await fixture.manage<{ roles: { name: string; rights: Rights }[] }>(
      'GET',
      '/v1/project/Shop',
    );
    const before = details.roles.find((role) => role.name === 'Support')!.rights;
    const collections = {
      ...before.collections,
      reviews: { ...before.collections?.reviews, addEnabled: false },
    };
    await fixture.manage('PATCH', path, { rights: { ...before, collections } });
    const other = await openBrowser();
    other.context.setDefaultTimeout(60_000);
    try {
      const { page: support } = await signIn(other.context, fixture, fixture.support);
      await openCollection(support, 'Reviews');
      expect(
        !(await support.getByRole('link', { name: 'Import CSV' }).count()),
        'no Import CSV on reviews',
      );
      // Customers may still be created: the import is there.
      await openCollection(support, 'Customers');
      await support.getByRole('link', { name: 'Import CSV' }).waitFor();
      const url = new URL(support.url());
      await support.goto(`${url.origin}${url.pathname.replace(/customers$/, 'reviews')}/import`);
      await support.getByRole('alert').getByText('Import not allowed').waitFor();
      expect(
        !(await support.getByRole('button', { name: 'Choose a CSV file' }).count()),
        'no file picker',
      );
      await shot(support, 'import-refused');
    } finally {
      await other.close();
      await fixture.manage('PATCH', path, { rights: before });
    }
  });
}
