/**
 * Browser checks of how values read (one formatting for the whole console): in a person's locale
 * and time zone, the same date, amount and typed date read the same in the list, on the record,
 * in the edit form, in a filter's value and in History; a JSON list is shown as structure and
 * saves unchanged. Each persona uses its own locale: the admin en-US in New York, Support de-DE
 * in Berlin.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';

type SignIn = (
  context: BrowserContext,
  fixture: Pick<Fixture, 'consoleUrl'>,
  user: User,
) => Promise<{ page: Page }>;

interface Persona {
  name: string;
  user: User;
  locale: string;
  timezoneId: string;
  /** A date-time as the locale writes it, and one to type (other separators, no zeros). */
  dateTime: RegExp;
  typedDateTime: string;
  typedDateTimeShown: string;
  typedDate: string;
  typedDateShown: string;
  amount: RegExp;
}

const PERSONAS = (fixture: Fixture): Persona[] => [
  {
    name: 'the admin (en-US, New York)',
    user: fixture.admin,
    locale: 'en-US',
    timezoneId: 'America/New_York',
    dateTime: /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} [AP]M$/,
    typedDateTime: '6/4/2025 3:16 pm',
    typedDateTimeShown: '06/04/2025, 03:16 PM',
    typedDate: '7/1/2025',
    typedDateShown: '07/01/2025',
    amount: /^€\d{1,3}(,\d{3})*\.\d{2}$/,
  },
  {
    name: 'Support (de-DE, Berlin)',
    user: fixture.support,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    dateTime: /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/,
    typedDateTime: '4.6.2025 15:16',
    typedDateTimeShown: '04.06.2025, 15:16',
    typedDate: '1.7.2025',
    typedDateShown: '01.07.2025',
    amount: /^\d{1,3}(\.\d{3})*,\d{2} €$/,
  },
];

/** The text of `row`'s cell under the header `name`. */
async function cellText(page: Page, row: number, name: string): Promise<string> {
  const headers = (await page.locator('thead th').allTextContents()).map((text) => text.trim());
  const index = headers.findIndex((text) => text === name);
  expect(index >= 0, `a "${name}" column (${headers.join(' | ')})`);
  const cell = page.locator('tbody tr[data-record-id]').nth(row).locator('td').nth(index);
  return ((await cell.textContent()) ?? '').trim();
}

async function fieldText(page: Page, field: string): Promise<string> {
  const text = (await page.locator(`[data-field="${field}"]`).textContent()) ?? '';
  return text.replace(/\u202f|\u00a0/g, ' ');
}

export async function runValuesTests(
  suite: Suite,
  fixture: Fixture,
  signIn: SignIn,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  if (fixture.agentKind !== 'canopy') return;
  for (const persona of PERSONAS(fixture)) {
    await suite.test(
      `${persona.name}: a date and an amount read the same in list, record, form, filter and History; a typed date is accepted`,
      async () => {
        const browser = await openBrowser({
          locale: persona.locale,
          timezoneId: persona.timezoneId,
        });
        browser.context.setDefaultTimeout(60_000);
        try {
          const { page } = await signIn(browser.context, fixture, persona.user);
          await page
            .getByRole('navigation', { name: 'Collections' })
            .getByRole('link', { name: 'Orders', exact: true })
            .click();
          await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
          // The second row: the first may be the order the rest of the suite edits.
          await page.locator('tbody tr[data-record-id]').nth(1).waitFor();
          const created = await cellText(page, 1, 'Created at');
          const total = await cellText(page, 1, 'Total');
          expect(persona.dateTime.test(created), `the list's date reads ${created}`);
          expect(persona.amount.test(total), `the list's total is an amount in EUR: ${total}`);
          await shot(page, `values-list-${persona.locale}`);

          // The record page.
          await page.locator('tbody tr[data-record-id]').nth(1).locator('td').nth(1).click();
          await page.waitForURL(/\/data\/orders\/\d+$/);
          const recordUrl = page.url();
          await page.locator('[data-field="created_at"]').waitFor();
          expect(
            (await fieldText(page, 'created_at')).includes(created),
            `the record shows ${created}: ${await fieldText(page, 'created_at')}`,
          );
          expect(
            (await fieldText(page, 'total')).includes(total),
            `the record shows ${total}: ${await fieldText(page, 'total')}`,
          );
          const iso = await page.locator('[data-field="created_at"] [title]').getAttribute('title');
          expect(iso && !Number.isNaN(Date.parse(iso)), `the stored moment (${iso})`);
          await shot(page, `values-record-${persona.locale}`);

          // A filter on that moment: its value reads the same.
          const filters = JSON.stringify({ field: 'created_at', operator: 'equal', value: iso });
          await page.goto(
            `${recordUrl.replace(/\/\d+$/, '')}?filters=${encodeURIComponent(filters)}`,
          );
          await page.getByRole('button', { name: 'Filter' }).click();
          const filterValue = page.getByRole('textbox', {
            name: 'Value of condition 1',
            exact: true,
          });
          expect(
            (await filterValue.inputValue()) === created,
            `the filter's value reads ${created}: ${await filterValue.inputValue()}`,
          );
          await page.waitForTimeout(300); // The filter pop-over fades in.
          await shot(page, `values-filter-${persona.locale}`);

          // The edit form: same strings; a date-time and a date typed the person's way.
          await page.goto(recordUrl);
          await page.getByRole('link', { name: 'Edit' }).click();
          await page.getByRole('heading', { name: /^Edit/ }).waitFor();
          const createdInput = page.getByRole('textbox', { name: 'Created at', exact: true });
          expect(
            (await createdInput.inputValue()) === created,
            `the form's date reads ${created}: ${await createdInput.inputValue()}`,
          );
          const totalInput = page.getByRole('textbox', { name: 'Total', exact: true });
          const formTotal = (await totalInput.inputValue()).replace(/\u202f|\u00a0/g, ' ');
          expect(formTotal === total, `the form's total reads ${total}: ${formTotal}`);
          await createdInput.fill(persona.typedDateTime);
          await createdInput.blur();
          expect(
            (await createdInput.inputValue()) === persona.typedDateTimeShown,
            `the typed date-time reads ${await createdInput.inputValue()}`,
          );
          const shipped = page.getByRole('textbox', { name: 'Shipped on', exact: true });
          await shipped.fill(persona.typedDate);
          await shipped.blur();
          expect(
            (await shipped.inputValue()) === persona.typedDateShown,
            `the typed date reads ${await shipped.inputValue()}`,
          );
          // The calendar opens on the value's month, not today's.
          await page.getByRole('button', { name: 'Open the calendar' }).nth(1).click();
          const month = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
          await page
            .getByRole('button', { name: month.format(new Date(Date.UTC(2025, 6, 1))) })
            .first()
            .waitFor();
          await shot(page, `values-edit-${persona.locale}`);
          // Picking the day already chosen keeps the typed date and closes the calendar.
          await page.getByRole('button', { name: /^1 July 2025$/ }).click();
          expect(
            (await shipped.inputValue()) === persona.typedDateShown,
            `the picked date reads ${await shipped.inputValue()}`,
          );
          await page.getByRole('button', { name: 'Save changes' }).click();
          await page.waitForURL(/\/data\/orders\/\d+$/);
          await page
            .locator('[data-field="created_at"]')
            .getByText(persona.typedDateTimeShown)
            .waitFor();
          expect(
            (await fieldText(page, 'shipped_on')).includes(persona.typedDateShown),
            `the record shows the typed date: ${await fieldText(page, 'shipped_on')}`,
          );

          // History: field labels, the same strings, the person's name (e-mail on hover).
          await page.getByRole('tab', { name: 'History' }).click();
          const change = page
            .locator('[data-testid="history-change"][data-field="created_at"]')
            .first();
          await change.waitFor();
          const text = ((await change.textContent()) ?? '').replace(/\u202f|\u00a0/g, ' ');
          expect(
            text === `Created at: ${created} → ${persona.typedDateTimeShown}`,
            `History reads the dates as the list does: ${text}`,
          );
          const who = change.locator('xpath=ancestor::tr').locator('td').nth(1);
          expect(
            (await who.getAttribute('title')) === persona.user.email &&
              (await who.textContent()) !== persona.user.email,
            `History names the person, e-mail on hover: ${await who.textContent()}`,
          );
          await shot(page, `values-history-${persona.locale}`);

          // A JSON list: shown as structure, saved unchanged through its editor.
          await page.goto(recordUrl.replace(/\/orders\/\d+$/, '/products/1'));
          const variants = page.locator('[data-field="variants"]');
          await variants.locator('[data-testid="json-list"]').waitFor();
          const shown = await fieldText(page, 'variants');
          await shot(page, `values-json-record-${persona.locale}`);
          expect(
            !shown.includes('[object Object]') && /size\s*M/.test(shown),
            `the JSON list reads as structure: ${shown}`,
          );
          await page.getByRole('link', { name: 'Edit' }).click();
          const editor = page.getByRole('textbox', { name: 'Variants', exact: true });
          await editor.waitFor();
          const json = await editor.inputValue();
          const list = JSON.parse(json) as unknown;
          expect(Array.isArray(list), `the editor holds the JSON list: ${json}`);
          // Typed again (one line): saved as the same list.
          await editor.fill(JSON.stringify(list));
          await page.getByRole('textbox', { name: 'Stock', exact: true }).fill('7');
          await page.getByRole('button', { name: 'Save changes' }).click();
          await page.waitForURL(/\/data\/products\/1$/);
          await page.locator('[data-field="stock"]').getByText('7', { exact: true }).waitFor();
          expect(
            (await fieldText(page, 'variants')) === shown,
            `the JSON list is unchanged: ${await fieldText(page, 'variants')}`,
          );
          await page.getByRole('link', { name: 'Edit' }).click();
          const again = JSON.parse(
            await page.getByRole('textbox', { name: 'Variants', exact: true }).inputValue(),
          ) as unknown;
          expect(
            JSON.stringify(again) === JSON.stringify(list),
            `the stored list is the same: ${JSON.stringify(again)}`,
          );
          await shot(page, `values-json-${persona.locale}`);
        } finally {
          await browser.close();
        }
      },
    );
  }
}
