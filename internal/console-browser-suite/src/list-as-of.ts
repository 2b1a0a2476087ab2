/**
 * Browser check of a collection list "as of" a time (the demo's agent runs with `auditTrail`):
 * one order's status is changed through the agent, then the orders list is set, with the toolbar's
 * date-time picker, to a moment before that change: the row is marked as changed since, its status
 * cell shows the old status with today's under it, and the moment is in the address (a reload
 * keeps it). "Back to now" returns to today's list. The order's status is restored after.
 */
import type { Page } from 'playwright-core';
import { AgentClient } from '@canopy/console';
import type { Fixture } from './fixture';
import { expect, type Suite } from './harness';
import { openCollection, rowIds, settle } from './suite';

const STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'];

/** The wall-clock parts of a moment in a time zone (what the picker shows there). */
function wallClock(moment: Date, timeZone: string): Record<string, string> {
  // Swedish dates read `2026-11-28 19:41:57`.
  const [year, month, day, hour, minute, second] = moment
    .toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' })
    .split(/[- :]/);
  return { year, month, day, hour, minute, second } as Record<string, string>;
}

export async function runListAsOfTests(
  suite: Suite,
  fixture: Fixture,
  p: Page,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  // The reference agent (core tests only) has no history, and the Console no "As of" for it.
  if (fixture.agentKind !== 'canopy') return;
  await suite.test(
    'shows the orders list as of a time before a change, marked, then back to now',
    async () => {
      await openCollection(p, 'Orders');
      // By id, with no filter or search an earlier test left in the list's memory.
      const list = new URL(p.url());
      list.search = '?sort=id';
      await p.goto(list.toString());
      await settle(p);
      const token = await p.evaluate(
        () => JSON.parse(sessionStorage.getItem('canopy.console.session') ?? '{}').token as string,
      );
      expect(token, 'the page holds an agent session token');
      const agent = new AgentClient({
        baseUrl: fixture.agentUrl,
        timezone: 'UTC',
        getToken: () => token,
      });
      const [id] = await rowIds(p);
      expect(id, 'the orders list shows a row');
      const statusOf = async () => String((await agent.get('orders', id))?.values.status);
      const setStatus = (status: string) => agent.update('orders', id, { status });
      const original = await statusOf();
      const changed = STATUSES.find((status) => status !== original)!;
      // A moment before the change, in whole seconds (the picker's precision).
      const moment = new Date(Math.floor(Date.now() / 1000) * 1000);
      await p.waitForTimeout(1_100);
      await setStatus(changed);
      try {
        await p.reload();
        await settle(p);
        const row = p.locator(`tbody tr[data-record-id="${id}"]`);
        await row.getByText(changed, { exact: true }).waitFor();

        // The toolbar's picker, as a person uses it: the day, then the time, then OK.
        const timeZone = await p.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
        const wall = wallClock(moment, timeZone);
        await p.getByRole('button', { name: 'As of…' }).click();
        await pickMoment(p, wall);
        await p.waitForURL(/asOf=/);
        await settle(p);
        const mark = row.getByRole('img', { name: /^Changed since / });
        await mark.waitFor();
        const cell = row.locator('[data-testid="as-of-cell"][data-field="status"]');
        const text = (await cell.textContent()) ?? '';
        expect(
          text.startsWith(original) && text.endsWith(`now: ${changed}`),
          `the status cell shows ${original} then, ${changed} now (${text})`,
        );
        const banner = p.getByTestId('as-of-banner');
        await banner.getByText(/changed since/).waitFor();
        expect(
          (await p.locator('table[data-as-of] tbody tr [data-editable-cell]').count()) === 0,
          'no cell is editable in the past',
        );
        expect(
          !(await row.locator('input.rt-check').isVisible()),
          'the selection boxes are hidden in the past',
        );
        await shot(p, 'list-as-of');

        // The moment is in the address: a reload (or a shared link) shows the same.
        const shared = p.url();
        expect(
          new URL(shared).searchParams.get('asOf') === moment.toISOString(),
          `the address holds the moment picked (${shared})`,
        );
        await p.reload();
        await settle(p);
        await mark.waitFor();

        await banner.getByRole('button', { name: 'Back to now' }).click();
        await p.waitForURL((url) => !url.searchParams.has('asOf'));
        await settle(p);
        await banner.waitFor({ state: 'detached' });
        expect((await p.getByTestId('as-of-mark').count()) === 0, 'no row is marked now');
        await row.getByText(changed, { exact: true }).waitFor();
        await p.getByRole('button', { name: 'As of…' }).waitFor();
        await shot(p, 'list-as-of-now');
      } finally {
        await setStatus(original);
      }
    },
  );
}

/** Picks a day and a time of day (`wall`: the wall-clock parts) in the toolbar's picker. */
async function pickMoment(p: Page, wall: Record<string, string>): Promise<void> {
  const month = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(wall.year), Number(wall.month) - 1, 1)),
  );
  // The calendar opens on this month: the moment is a second or two ago.
  await p.getByRole('button', { name: `${Number(wall.day)} ${month} ${wall.year}` }).click();
  for (const [label, value] of [
    ['Hours', wall.hour],
    ['Minutes', wall.minute],
    ['Seconds', wall.second],
  ] as const) {
    await p.getByRole('spinbutton', { name: label, exact: true }).click();
    await p.keyboard.type(value!);
  }
  await p.getByRole('button', { name: 'Show the list at this time' }).click();
}
