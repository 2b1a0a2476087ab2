import { isDeepStrictEqual } from 'node:util';
/**
 * The settings screens in the browser: each screen, an invitation, a team scope and an action
 * condition edited with the filter builder, an environment created and renamed, an application
 * token created in the UI and used with curl (then revoked and refused), a role change that
 * removes a button from a member who is signed in, and a member who is not an admin kept out.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';

const run = promisify(execFile);

export interface SettingsHelpers {
  signIn(context: BrowserContext, fixture: Fixture, user: User): Promise<{ page: Page }>;
  openCollection(page: Page, label: string): Promise<void>;
  shot(page: Page, name: string): Promise<void>;
}

/** `curl` as a script would call the public API, printing the status on the last line. */
async function curl(url: string, token: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run('curl', [
    '-sS',
    '-H',
    `Authorization: Bearer ${token}`,
    '-w',
    '\n%{http_code}',
    url,
  ]);
  const lines = stdout.split('\n');
  return { status: Number(lines.pop()), body: lines.join('\n') };
}

async function openSettings(page: Page, tab: string): Promise<void> {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await page.waitForURL(new RegExp(`/settings/${tabPath(tab)}$`));
}

const tabPath = (tab: string) =>
  ({
    Members: 'members',
    Roles: 'roles',
    Teams: 'teams',
    'Application tokens': 'tokens',
    Environments: 'environments',
  })[tab];

async function pick(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export async function notified(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

export async function settingsTests(
  suite: Suite,
  fixture: Fixture,
  page: Page,
  helpers: SettingsHelpers,
): Promise<void> {
  const { shot } = helpers;
  const project = `${fixture.consoleUrl}/v1/project/Shop`;
  // The desktop width, whatever an earlier test left: the sidebar (and its Settings link) shows.
  await page.setViewportSize({ width: 1280, height: 800 });

  await suite.test('settings: the admin invites a member and sees the one-time link', async () => {
    await openSettings(page, 'Members');
    await page.getByRole('table', { name: 'Members' }).getByText(fixture.support.email).waitFor();
    await shot(page, 'settings-members');
    await page.getByRole('button', { name: 'Invite a member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByText('Enter an email address').waitFor();
    await dialog.getByLabel('Email').fill('linus@shop.example');
    await dialog.getByLabel('First name').fill('Linus');
    await dialog.getByRole('textbox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Support', exact: true }).click();
    await dialog.getByRole('button', { name: 'Invite' }).click();
    const link = dialog.getByTestId('secret-value');
    await link.waitFor();
    const url = (await link.textContent()) ?? '';
    expect(url.startsWith(`${fixture.consoleUrl}/`), `an invitation link on the platform: ${url}`);
    await shot(page, 'settings-invitation');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr[data-member="linus@shop.example"]');
    await row.waitFor();
    expect(
      (await row.getByRole('textbox', { name: 'Role of linus@shop.example' }).inputValue()) ===
        'Support',
      'the new member holds the role chosen',
    );
    // The level and the teams of a member change in place.
    await pick(page, 'Permission level of linus@shop.example', 'Editor');
    await notified(page, 'linus@shop.example updated.');
    await row.locator('.mantine-MultiSelect-input').click();
    await page.getByRole('option', { name: 'Europe', exact: true }).click();
    await page.keyboard.press('Escape');
    type Members = { members: { email: string; permissionLevel: string; teamNames: string[] }[] };
    let linus: Members['members'][number] | undefined;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      linus = (await fixture.manage<Members>('GET', '/v1/project/Shop')).members.find(
        (member) => member.email === 'linus@shop.example',
      );
      if (linus?.teamNames.includes('Europe')) break;
      await page.waitForTimeout(250);
    }
    expect(
      linus?.permissionLevel === 'editor' && linus.teamNames.includes('Europe'),
      `the member as stored: ${JSON.stringify(linus)}`,
    );
    // Its page sets the password once.
    const opened = await page.context().newPage();
    await opened.goto(url);
    await opened
      .getByLabel(/password/i)
      .first()
      .waitFor();
    await opened.close();
  });

  await suite.test('settings: a team scope is edited with the filter builder', async () => {
    await openSettings(page, 'Teams');
    await page.getByRole('button', { name: /^Europe/ }).click();
    await page.getByRole('heading', { name: 'Europe', level: 3 }).waitFor();
    await page.getByRole('textbox', { name: 'Scope another collection' }).click();
    await page.getByRole('option', { name: 'Orders', exact: true }).click();
    await page.getByRole('button', { name: 'Add a scope' }).click();
    const dialog = page.getByRole('dialog', { name: /Scope of Europe on Orders/ });
    await pick(page, 'Field of condition 1', 'Status');
    await pick(page, 'Operator of condition 1', 'is not');
    await pick(page, 'Value of condition 1', 'cancelled');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.locator('[data-scope="orders"]').getByText('Status is not cancelled').waitFor();
    await page.getByRole('button', { name: 'Save team' }).click();
    await notified(page, 'Team Europe saved');
    await shot(page, 'settings-teams');
    const details = await fixture.manage<{ teams: { name: string; scopes: object }[] }>(
      'GET',
      '/v1/project/Shop',
    );
    const europe = details.teams.find((team) => team.name === 'Europe');
    expect(
      isDeepStrictEqual(europe?.scopes, {
        orders: { field: 'status', operator: 'not_equal', value: 'cancelled' },
      }),
      `the scope stored: ${JSON.stringify(europe?.scopes)}`,
    );
    // Back to no scope, so that the next tests see every order.
    await page.getByRole('button', { name: 'Remove the scope on orders' }).click();
    await page.getByRole('button', { name: 'Save team' }).click();
    await notified(page, 'Team Europe saved');
  });

  await suite.test('settings: an approval requirement with a condition on a role', async () => {
    await openSettings(page, 'Roles');
    await page.getByRole('button', { name: /^Support/ }).click();
    await page.getByRole('heading', { name: 'Support', level: 3 }).waitFor();
    await page.getByRole('switch', { name: 'Requires approval: Refund order on orders' }).check();
    await page
      .getByRole('button', { name: 'Condition of Requires approval: Refund order' })
      .click();
    const dialog = page.getByRole('dialog', { name: /Requires approval: Refund order/ });
    await pick(page, 'Field of condition 1', 'Status');
    await pick(page, 'Operator of condition 1', 'is');
    await pick(page, 'Value of condition 1', 'delivered');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Save role' }).click();
    await notified(page, 'Role Support saved');
    await shot(page, 'settings-roles');
    type Rights = { actions?: Record<string, Record<string, unknown>> };
    const details = await fixture.manage<{ roles: { name: string; rights: Rights }[] }>(
      'GET',
      '/v1/project/Shop',
    );
    const refund = details.roles.find((r) => r.name === 'Support')?.rights.actions?.orders?.[
      'Refund order'
    ] as { approvalRequired?: boolean; approvalRequiredConditions?: unknown } | undefined;
    expect(
      refund?.approvalRequired === true &&
        isDeepStrictEqual(refund.approvalRequiredConditions, {
          field: 'status',
          operator: 'equal',
          value: 'delivered',
        }),
      `the action rights stored: ${JSON.stringify(refund)}`,
    );
  });

  await suite.test(
    'settings: an environment is created (secret shown once) and renamed',
    async () => {
      await openSettings(page, 'Environments');
      await page.getByRole('button', { name: 'New environment' }).click();
      const dialog = page.getByRole('dialog', { name: 'New environment' });
      await dialog.getByLabel('Name').fill('Staging');
      await dialog.getByLabel('API endpoint').fill('not a url');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('Enter the agent URL').waitFor();
      await dialog.getByLabel('API endpoint').fill('https://staging-agent.shop.example/forest');
      // The origin the console would connect to is shown, and must be confirmed before it is trusted.
      await dialog
        .getByTestId('endpoint-origin')
        .filter({ hasText: 'https://staging-agent.shop.example' })
        .waitFor();
      await dialog.getByRole('button', { name: 'Create' }).click();
      const trust = page.getByRole('dialog', {
        name: 'Trust the agent at https://staging-agent.shop.example?',
      });
      await trust.getByRole('button', { name: 'Trust this agent' }).click();
      const secret = (await dialog.getByTestId('secret-value').textContent()) ?? '';
      expect(/^[0-9a-f]{64}$/.test(secret), `an env secret shown: ${secret.length} characters`);
      await dialog.getByRole('button', { name: 'Done' }).click();
      const row = page.locator('tr[data-environment="Staging"]');
      await row.getByText('https://staging-agent.shop.example/forest').waitFor();
      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Environment Staging' });
      await edit.getByLabel('Name').fill('Staging EU');
      // Same agent origin: nothing new to trust, the save goes through.
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.locator('tr[data-environment="Staging EU"]').waitFor();
      expect(
        !(await page.getByText(secret).count()),
        'the secret is not shown again once the dialog is closed',
      );
      await shot(page, 'settings-environments');
    },
  );

  await suite.test(
    'settings: an application token created in the UI works with curl until revoked',
    async () => {
      await openSettings(page, 'Application tokens');
      await page.getByRole('button', { name: 'New token' }).click();
      const dialog = page.getByRole('dialog', { name: 'New application token' });
      await dialog.getByRole('button', { name: 'Create token' }).click();
      await dialog.getByText('Choose at least one scope.').waitFor();
      await dialog.getByLabel('Name').fill('Nightly notes export');
      await dialog.getByRole('checkbox', { name: /Read notes/ }).check();
      await dialog.getByRole('textbox', { name: 'Expires after' }).click();
      await page.getByRole('option', { name: '7 days', exact: true }).click();
      await dialog.getByRole('button', { name: 'Create token' }).click();
      const token = ((await dialog.getByTestId('secret-value').textContent()) ?? '').trim();
      expect(token.split('.').length === 3, 'the token is shown');
      await shot(page, 'settings-token-created');
      await dialog.getByRole('button', { name: 'Done' }).click();
      const row = page.locator('tr[data-token="Nightly notes export"]');
      await row.getByText('notes:read').waitFor();
      expect(!(await page.getByText(token).count()), 'the token is shown once only');
      await shot(page, 'settings-tokens');

      const notes = `${project}/environment/Production/notes`;
      const allowed = await curl(notes, token);
      expect(allowed.status === 200, `curl with the token: ${allowed.status} ${allowed.body}`);
      expect(Array.isArray(JSON.parse(allowed.body).data), 'a list of notes');
      const outOfScope = await curl(`${project}/environment/Production/activity-logs`, token);
      expect(outOfScope.status === 403, `a scope it lacks: ${outOfScope.status}`);

      await row.getByRole('button', { name: 'Revoke Nightly notes export' }).click();
      await page
        .getByRole('dialog', { name: 'Revoke Nightly notes export?' })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await notified(page, 'Token Nightly notes export revoked');
      await row.waitFor({ state: 'detached' });
      const refused = await curl(notes, token);
      expect(refused.status === 401, `curl after revoke: ${refused.status} ${refused.body}`);
    },
  );

  const other = await openBrowser();
  other.context.setDefaultTimeout(60_000);
  try {
    let member: Page | undefined;
    await suite.test(
      'settings: a member who is not an admin has none, the server agrees',
      async () => {
        ({ page: member } = await helpers.signIn(other.context, fixture, fixture.support));
        expect(
          !(await member.getByRole('link', { name: 'Settings', exact: true }).count()),
          'no settings link for a member with the user level',
        );
        const url = new URL(member.url());
        const [, projectName, environmentName] = url.pathname.split('/');
        await member.goto(`${url.origin}/${projectName}/${environmentName}/settings/roles`);
        await member.getByText('Settings are for project admins').waitFor();
        // With the credential the console holds for this member, the management API says no.
        const status = await member.evaluate(async (base) => {
          const stored = sessionStorage.getItem('canopy.console.platform');
          const token = stored ? (JSON.parse(stored) as { accessToken: string }).accessToken : '';
          const response = await fetch(`${base}/v1/project/Shop/roles`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Mine' }),
          });
          return response.status;
        }, fixture.consoleUrl);
        expect(status === 403, `the management API answers the member ${status}`);
      },
    );

    await suite.test(
      "settings: a role change removes a signed-in member's action button within seconds",
      async () => {
        expect(member, 'the member is signed in');
        await helpers.openCollection(member, 'Customers');
        // The Actions button lists the actions the role may trigger; none left, it goes.
        const actionsButton = member.getByTestId('actions-menu');
        await actionsButton.waitFor();
        await openSettings(page, 'Roles');
        await page.getByRole('button', { name: /^Support/ }).click();
        await page.getByRole('heading', { name: 'Support', level: 3 }).waitFor();
        const triggers = [
          page.getByRole('switch', { name: 'Trigger: Import customers on customers' }),
          page.getByRole('switch', { name: 'Trigger: Open in CRM on customers' }),
        ];
        // Mantine's switch input sits under its track, which Playwright's actionability checks
        // do not treat as stable: toggle it with the click its track forwards.
        for (const trigger of triggers) await trigger.dispatchEvent('click');
        await page.getByRole('button', { name: 'Save role' }).click();
        await notified(page, 'Role Support saved');
        const saved = Date.now();
        await actionsButton.waitFor({ state: 'detached', timeout: 20_000 });
        const seconds = (Date.now() - saved) / 1000;
        console.log(`    (the Actions button disappeared ${seconds.toFixed(1)} s after the save)`);
        expect(seconds < 10, `within seconds: ${seconds} s`);
        // And back, as the member sees it again.
        for (const trigger of triggers) await trigger.dispatchEvent('click');
        await page.getByRole('button', { name: 'Save role' }).click();
        await actionsButton.waitFor({ timeout: 20_000 });
      },
    );
  } finally {
    await other.close();
  }
}
