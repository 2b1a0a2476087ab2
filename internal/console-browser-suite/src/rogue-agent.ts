/**
 * A rogue agent at an environment's API endpoint: a tiny HTTP server on 127.0.0.1 that answers
 * the agent login (`POST …/authentication`) with an `authorizationUrl` of its own choosing. The
 * admin adds it in the environment settings (its origin shown, then confirmed); the console's
 * CSP then lets the console reach it; and the console refuses to follow what it answers — a
 * look-alike form on the agent's origin, or the console's own login — saying why, with no
 * pop-up going there.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { openBrowser } from './browser';
import type { Fixture, User } from './fixture';
import { expect, type Suite } from './harness';

interface RogueAgent {
  url: string;
  origin: string;
  /** What `POST …/authentication` answers as `authorizationUrl`. */
  answer: string;
  /** Requests for anything but the agent login (its look-alike sign-in form). */
  formHits: number;
  close(): Promise<void>;
}

async function startRogueAgent(consoleOrigin: string): Promise<RogueAgent> {
  const agent = { answer: '', formHits: 0 } as RogueAgent;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', consoleOrigin);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'content-type',
    );
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && req.url?.endsWith('/authentication')) {
      req.resume();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ authorizationUrl: agent.answer }));
      return;
    }
    agent.formHits += 1;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<form><label>Email <input name=email></label><label>Password <input></label></form>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  agent.origin = `http://127.0.0.1:${port}`;
  agent.url = `${agent.origin}/forest-agent`;
  agent.close = () => new Promise((resolve) => server.close(() => resolve()));
  return agent;
}

export async function rogueAgentTests(
  suite: Suite,
  fixture: Fixture,
  admin: Page,
  platformSignIn: (page: Page, fixture: Fixture, user: User) => Promise<unknown>,
): Promise<void> {
  const consoleOrigin = new URL(fixture.consoleUrl).origin;
  const rogue = await startRogueAgent(consoleOrigin);
  let created = false;
  try {
    await suite.test(
      "the admin sees and confirms a new agent's origin, and the CSP then names it and no other host",
      async () => {
        await admin.goto(`${fixture.consoleUrl}/Shop/Production/settings/environments`);
        await admin.getByRole('button', { name: 'New environment' }).click();
        const dialog = admin.getByRole('dialog', { name: 'New environment' });
        await dialog.getByLabel('Name').fill('Rogue');
        await dialog.getByLabel('API endpoint').fill(rogue.url);
        await dialog.getByTestId('endpoint-origin').filter({ hasText: rogue.origin }).waitFor();
        await dialog.getByRole('button', { name: 'Create' }).click();
        const trust = admin.getByRole('dialog', { name: `Trust the agent at ${rogue.origin}?` });
        // Cancel first: nothing is saved until the admin confirms.
        await trust.getByRole('button', { name: 'Cancel' }).click();
        await trust.waitFor({ state: 'hidden' });
        const before = await fixture.manage<{ environments: { name: string }[] }>(
          'GET',
          '/v1/project/Shop',
        );
        expect(
          !before.environments.some((e) => e.name === 'Rogue'),
          'not created before the confirmation',
        );
        await dialog.getByRole('button', { name: 'Create' }).click();
        await trust.getByRole('button', { name: 'Trust this agent' }).click();
        await dialog.getByTestId('secret-value').waitFor();
        created = true;
        await dialog.getByRole('button', { name: 'Done' }).click();

        // The console's connect-src follows the environments' agents (read again every 5 s).
        let connect = '';
        const deadline = Date.now() + 15_000;
        while (!connect.includes(rogue.origin) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const response = await fetch(fixture.consoleUrl, { headers: { accept: 'text/html' } });
          connect =
            response.headers
              .get('content-security-policy')
              ?.split('; ')
              .find((d) => d.startsWith('connect-src')) ?? '';
        }
        expect(connect.includes(rogue.origin), `connect-src names the new agent: ${connect}`);
        expect(
          connect.includes(new URL(fixture.agentUrl).origin),
          `connect-src names the shop's agent: ${connect}`,
        );
        expect(
          !/ (https?:|\*)( |$)/.test(connect) && !connect.includes('evil'),
          `connect-src names no host at large: ${connect}`,
        );
      },
    );

    await suite.test(
      "the console refuses an agent's sign-in at another origin or as the console, and says why",
      async () => {
        expect(created, 'the rogue environment exists');
        const browser = await openBrowser();
        browser.context.setDefaultTimeout(60_000);
        try {
          const page = await browser.context.newPage();
          await platformSignIn(page, fixture, fixture.admin);
          await page.getByRole('textbox', { name: 'Project and environment' }).click();
          await page.getByRole('option', { name: 'Shop · Rogue', exact: true }).click();
          await page.getByTestId('agent-origin').filter({ hasText: rogue.origin }).waitFor();

          const popupUrls: string[] = [];
          browser.context.on('request', (request) => {
            let fromPage = false;
            try {
              fromPage = request.frame().page() === page;
            } catch {
              // A service worker's request has no frame: not the pop-up's either way.
            }
            if (!fromPage) popupUrls.push(request.url());
          });
          const attempt = async (answer: string, reason: RegExp) => {
            rogue.answer = answer;
            popupUrls.length = 0;
            const [popup] = await Promise.all([
              page.waitForEvent('popup'),
              page.getByRole('button', { name: 'Open' }).click(),
            ]);
            const alert = page.getByRole('alert').filter({ hasText: reason });
            await alert.waitFor({ timeout: 20_000 });
            if (!popup.isClosed()) {
              await popup.waitForEvent('close', { timeout: 10_000 }).catch(() => undefined);
            }
            expect(popup.isClosed(), 'the sign-in window is closed');
            return (await alert.textContent()) ?? '';
          };

          const foreign = await attempt(
            `${rogue.origin}/login?client_id=agent-1&response_type=code`,
            /which is not this platform/,
          );
          expect(
            foreign.includes(`asked to sign you in at ${rogue.origin}`) &&
              foreign.includes(consoleOrigin),
            `the reason names both origins: ${foreign}`,
          );
          expect(rogue.formHits === 0, `the look-alike form was never loaded (${rogue.formHits})`);
          expect(
            !popupUrls.some((url) => url.startsWith(rogue.origin)),
            `no pop-up request went to the agent: ${popupUrls.join(', ')}`,
          );

          const own = await attempt(
            `${consoleOrigin}/oidc/auth?client_id=canopy-console&response_type=code&code_challenge=kept&code_challenge_method=S256&redirect_uri=${encodeURIComponent(`${consoleOrigin}/oidc/callback`)}`,
            /as the console itself/,
          );
          expect(own.length > 0, 'the refusal is shown');
          expect(
            !popupUrls.some((url) => url.includes('client_id=canopy-console')),
            `the console's own login was not started for the agent: ${popupUrls.join(', ')}`,
          );
        } finally {
          await browser.close();
        }
      },
    );
  } finally {
    if (created) await fixture.manage('DELETE', '/v1/project/Shop/environments/Rogue');
    await rogue.close();
  }
}
