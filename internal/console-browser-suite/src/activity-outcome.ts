/**
 * An action that fails in the console reads as failed in Activity, with the reason its user was
 * given (issue 31): the demo's Restock refuses a quantity of 0 with an error result. The admin
 * finds it in the activity log (filtered to failures); the support member, who has no
 * environment-wide log, on the product's own Activity tab.
 */
import type { Page } from 'playwright-core';
import { expect } from './harness';
import { openCollection } from './suite';

/** What the demo's Restock answers for a quantity of 0. */
export const RESTOCK_REFUSAL = 'The quantity must be a positive whole number.';

/** Runs Restock with a quantity of 0 on the first product, as a person would; its URL. */
export async function failRestock(page: Page): Promise<string> {
  await openCollection(page, 'Products');
  await page.locator('tbody tr[data-record-id]').first().locator('td').nth(1).click();
  await page.getByRole('tab', { name: 'Details' }).waitFor();
  const recordUrl = page.url().split('?')[0]!;
  await page.getByTestId('actions-menu').click();
  await page.getByRole('menuitem', { name: /^Restock/ }).click();
  const dialog = page.getByTestId('action-dialog');
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Supplier' }).fill('bo');
  await page.getByRole('option', { name: 'Bois & Co', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Quantity' }).fill('0');
  await dialog.getByRole('button', { name: 'Restock', exact: true }).click();
  await page.getByTestId('action-error').getByText(RESTOCK_REFUSAL).waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return recordUrl;
}

/** The failed Restock row of the activity table on the page, once the agent's batch is in. */
async function failedRestockRow(page: Page, load: () => Promise<void>) {
  const row = page
    .locator('[data-testid="activity-row"]', { hasText: 'Restock' })
    .filter({ has: page.getByTestId('activity-reason') })
    .first();
  // The agent sends its logs in batches, about a second apart.
  for (let attempt = 0; attempt < 15 && !(await row.count()); attempt += 1) {
    await page.waitForTimeout(1000);
    await load();
  }
  await row.waitFor();
  return row;
}

/** Checks the row's outcome and reason as the user reads them. */
async function expectFailedWithReason(row: ReturnType<Page['locator']>, who: string) {
  const outcome = row.getByTestId('activity-outcome');
  expect(
    (await outcome.locator('.activity-outcome').textContent())?.trim() === 'Failed',
    `${who}: the Restock run reads as failed`,
  );
  const reason = (await row.getByTestId('activity-reason').textContent())?.trim();
  expect(reason === RESTOCK_REFUSAL, `${who}: its reason is shown (${reason})`);
  expect(await row.getByTestId('activity-reason').isVisible(), `${who}: the reason is visible`);
}

/** The admin's activity log, filtered to failures with the Outcome filter. */
export async function checkFailedInActivityLog(page: Page, home: string): Promise<void> {
  const load = async () => {
    await page.goto(`${home}/activity`);
    await page.getByRole('tab', { name: 'Activity log' }).waitFor();
    await page.getByRole('textbox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Failed', exact: true }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page
      .locator('[data-testid="activity-row"], [data-testid="logs-empty"]')
      .first()
      .waitFor();
  };
  await load();
  const row = await failedRestockRow(page, load);
  await expectFailedWithReason(row, 'admin');
  const outcomes = await page
    .locator('[data-testid="activity-row"] .activity-outcome')
    .allTextContents();
  expect(
    outcomes.every((text) => text.trim() === 'Failed'),
    `the Outcome filter keeps failures only: ${outcomes.join(', ')}`,
  );
}

/** Opens a record's Activity tab and waits until it shows its entries, or that it has none. */
export async function openRecordActivity(page: Page, recordUrl: string): Promise<void> {
  await page.goto(`${recordUrl}?tab=activity`);
  await page
    .getByRole('table', { name: 'Activity' })
    .or(page.getByText('No activity'))
    .first()
    .waitFor();
}

/** The record's own Activity tab (what a member without the environment-wide log sees). */
export async function checkFailedOnRecord(page: Page, recordUrl: string, who: string) {
  const load = () => openRecordActivity(page, recordUrl);
  await load();
  await expectFailedWithReason(await failedRestockRow(page, load), who);
}
