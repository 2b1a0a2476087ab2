/**
 * Signing in and the account, in the browser: the platform's sign-in page in the Console's look
 * (light and dark), the e-mail kept after a wrong password, an account locked by failed sign-ins
 * and unlocked by an admin in Settings › Members, the account menu's theme (remembered), team
 * switch (without signing out) and password change. Run last: they change the theme, the
 * admin's teams and the Support member's password.
 */
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';
import { notified } from './settings';

export interface SignInHelpers {
  chooserOrOpened(page: Page, user: User): Promise<'chooser' | 'opened'>;
  /** Picks `user.team` and opens the environment; throws if the platform asks for a password. */
  openEnvironment(page: Page, user: User): Promise<unknown>;
  openCollection(page: Page, label: string): Promise<void>;
  shot(page: Page, name: string): Promise<void>;
}

/** Opens the platform's sign-in pop-up from the console's sign-in page. */
async function openSignInPopup(page: Page, fixture: Fixture): Promise<Page> {
  await page.goto(fixture.consoleUrl);
  await page.getByRole('heading', { name: 'Canopy Console' }).waitFor();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await popup.getByLabel('Email').waitFor();
  return popup;
}

async function submit(popup: Page, email: string, password: string): Promise<void> {
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password').fill(password);
  await Promise.all([
    popup.waitForNavigation(),
    popup.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

const style = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

async function accountMenu(page: Page, email: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Account of ${email}` }).click();
  await page
    .getByRole('menuitem', { name: item })
    .or(page.getByRole('menuitemradio', { name: item }))
    .click();
}

export async function signInAndAccountTests(
  suite: Suite,
  fixture: Fixture,
  admin: Page,
  helpers: SignInHelpers,
): Promise<void> {
  const { shot } = helpers;

  await suite.test(
    "the platform's sign-in page has the Console's look, light and dark, and keeps the e-mail after a wrong password",
    async () => {
      const browser = await openBrowser();
      browser.context.setDefaultTimeout(60_000);
      try {
        const popup = await openSignInPopup(await browser.context.newPage(), fixture);
        await popup.setViewportSize({ width: 480, height: 640 });
        await popup.emulateMedia({ colorScheme: 'light' });
        const font = await style(popup, 'body', 'font-family');
        expect(/Inter|system-ui/.test(font), `the Console's fonts (${font})`);
        expect(
          (await style(popup, 'main', 'background-color')) === 'rgb(255, 255, 255)',
          'a white card in light mode',
        );
        expect(
          (await style(popup, 'button[type=submit]', 'background-color')) === 'rgb(8, 127, 91)',
          "the button in the Console's teal",
        );
        await shot(popup, 'platform-sign-in-light');

        await submit(popup, fixture.support.email, 'not the password at all');
        await popup.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
        expect(
          (await popup.getByLabel('Email').inputValue()) === fixture.support.email,
          'the e-mail typed is kept',
        );
        expect(
          await popup.getByLabel('Password').evaluate((input) => input === document.activeElement),
          'the password field has the focus',
        );
        await shot(popup, 'platform-sign-in-wrong-password');

        await popup.emulateMedia({ colorScheme: 'dark' });
        expect(
          (await style(popup, 'main', 'background-color')) === 'rgb(46, 46, 46)',
          "Mantine's dark card in dark mode",
        );
        expect(
          (await style(popup, 'body', 'color')) === 'rgb(201, 201, 201)',
          "Mantine's dark text colour",
        );
        await shot(popup, 'platform-sign-in-dark');
      } finally {
        await browser.close();
      }
    },
  );

  // The Support member's browser, kept for the password change.
  const member = await openBrowser();
  member.context.setDefaultTimeout(60_000);
  let memberPage: Page | undefined;
  try {
    await suite.test(
      'a member locked out after failed sign-ins is unlocked by an admin in Settings › Members and signs in',
      async () => {
        const page = await member.context.newPage();
        const popup = await openSignInPopup(page, fixture);
        let locked = false;
        for (let attempt = 0; attempt < 15 && !locked; attempt += 1) {
          await submit(popup, fixture.support.email, `wrong guess ${attempt}`);
          locked =
            (await popup.getByRole('alert').textContent())?.includes('locked until') ?? false;
        }
        expect(locked, 'the account is locked after repeated failures');
        const until = popup.getByRole('alert').locator('time');
        const shown = (await until.textContent()) ?? '';
        expect(!shown.includes('UTC'), `the time is the reader's local time (${shown})`);
        expect(
          (await popup.getByLabel('Email').inputValue()) === fixture.support.email,
          'the e-mail typed is kept on the locked page',
        );
        await shot(popup, 'platform-sign-in-locked');

        // The admin sees who is locked and until when, and unlocks (a fresh load: the members
        // shown earlier in this run may still be on screen).
        await admin.reload();
        await admin.getByRole('link', { name: 'Settings', exact: true }).click();
        await admin.getByRole('tab', { name: 'Members', exact: true }).click();
        const row = admin.locator(`tr[data-member="${fixture.support.email}"]`);
        await row.getByText(/^Locked until/).waitFor();
        await shot(admin, 'members-locked');
        await row.getByRole('button', { name: `Unlock ${fixture.support.email}` }).click();
        await notified(admin, `${fixture.support.email} can sign in again.`);
        await row.getByText(/^Locked until/).waitFor({ state: 'detached' });
        const logs = await fixture.manage<{ data: { previousValue?: { lockedUntil?: string } }[] }>(
          'GET',
          '/v1/project/Shop/admin-logs?resource=user-project&type=update&limit=5',
        );
        expect(
          logs.data.some((log) => log.previousValue?.lockedUntil),
          'the unlock is in the admin logs',
        );

        // The member signs in now, in the same window.
        await popup.getByLabel('Email').fill(fixture.support.email);
        await popup.getByLabel('Password').fill(fixture.support.password);
        await popup.getByRole('button', { name: 'Sign in' }).click();
        const step = await helpers.chooserOrOpened(page, fixture.support);
        if (step === 'chooser') {
          await page.getByRole('button', { name: 'Open' }).click();
        }
        await page.getByRole('button', { name: `Account of ${fixture.support.email}` }).waitFor();
        memberPage = page;
      },
    );

    await suite.test(
      'the account menu switches the theme (remembered) and the team, without signing out',
      async () => {
        type Details = { members: { id: number; email: string; teamNames: string[] }[] };
        const me = (await fixture.manage<Details>('GET', '/v1/project/Shop')).members.find(
          (m) => m.email === fixture.admin.email,
        )!;
        await fixture.manage('PATCH', `/v1/project/Shop/members/${me.id}`, {
          teamNames: ['Operations', 'Europe'],
        });
        try {
          await helpers.openCollection(admin, 'Orders');
          await accountMenu(admin, fixture.admin.email, 'Dark');
          await admin.waitForFunction(
            () => document.documentElement.dataset.mantineColorScheme === 'dark',
          );
          await admin.keyboard.press('Escape');
          await admin.getByRole('menu').waitFor({ state: 'detached' });
          await shot(admin, 'dark-orders');
          await admin.reload();
          await admin.locator('tbody tr[data-record-id]').first().waitFor();
          expect(
            (await admin.evaluate(() => document.documentElement.dataset.mantineColorScheme)) ===
              'dark',
            'the dark theme is remembered after a reload',
          );
          // Charts in dark: the demo's dashboard (a chart of each type; saving it again is harmless).
          await fixture.seedDashboard();
          await admin.getByRole('link', { name: 'Dashboard', exact: true }).click();
          await admin.locator('.recharts-wrapper').first().waitFor();
          await admin.waitForTimeout(600); // Charts animate in.
          await shot(admin, 'dark-dashboard');

          // Switch team: the chooser, no password, the other team.
          await accountMenu(admin, fixture.admin.email, 'Switch team or environment');
          await admin.getByRole('textbox', { name: 'Team', exact: true }).waitFor();
          expect(
            !(await admin.getByText('Sign in to work on your data').count()),
            'the sign-in sentence is gone once signed in',
          );
          expect(
            (await admin.getByRole('textbox', { name: 'Project and environment' }).inputValue()) ===
              'Shop · Production',
            'the current environment is preselected',
          );
          await admin.getByRole('textbox', { name: 'Team', exact: true }).click();
          const teams = await admin.getByRole('option').allTextContents();
          expect(
            teams.includes('Operations') && teams.includes('Europe'),
            `the admin's teams are listed (${teams.join(', ')})`,
          );
          await admin.keyboard.press('Escape');
          await shot(admin, 'choose-team-dark');
          // Signed in to the platform already: no password (openEnvironment checks it).
          await helpers.openEnvironment(admin, { ...fixture.admin, team: 'Europe' });
          await admin.getByRole('banner').getByText('Europe', { exact: true }).waitFor();
          await shot(admin, 'switched-team-dark');

          // Back to Operations and to the system's theme.
          await accountMenu(admin, fixture.admin.email, 'Switch team or environment');
          await helpers.openEnvironment(admin, fixture.admin);
          await admin.getByRole('banner').getByText('Operations', { exact: true }).waitFor();
          await accountMenu(admin, fixture.admin.email, 'System');
          await admin.waitForFunction(
            () => document.documentElement.dataset.mantineColorScheme === 'light',
          );
          await admin.keyboard.press('Escape');
        } finally {
          await fixture.manage('PATCH', `/v1/project/Shop/members/${me.id}`, {
            teamNames: ['Operations'],
          });
        }
      },
    );

    await suite.test('a member changes their password from the account menu', async () => {
      expect(memberPage, 'the member is signed in');
      const page = memberPage!;
      const email = fixture.support.email;
      const next = `${fixture.support.password}-changed`;
      await accountMenu(page, email, 'Change password');
      const dialog = page.getByRole('dialog', { name: 'Change your password' });
      await dialog.getByLabel('Current password').fill('not my password at all');
      await dialog.getByLabel(/^New password\s*\*?$/).fill(next);
      await dialog.getByLabel('New password again').fill(next);
      await dialog.getByRole('button', { name: 'Change password' }).click();
      await dialog
        .getByRole('alert')
        .filter({ hasText: 'The current password is wrong.' })
        .waitFor();
      await dialog.getByLabel('Current password').fill(fixture.support.password);
      await dialog.getByRole('button', { name: 'Change password' }).click();
      await notified(page, 'Your password is changed.');
      fixture.support.password = next;

      // Signed out, the new password signs in.
      await accountMenu(page, email, 'Sign out');
      const popup = await openSignInPopup(page, fixture);
      await popup.getByLabel('Email').fill(email);
      await popup.getByLabel('Password').fill(next);
      await popup.getByRole('button', { name: 'Sign in' }).click();
      if ((await helpers.chooserOrOpened(page, fixture.support)) === 'chooser') {
        await page.getByRole('button', { name: 'Open' }).click();
      }
      await page.getByRole('button', { name: `Account of ${email}` }).waitFor();
    });
  } finally {
    await member.close();
  }
}
