import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import express from 'express';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/**
 * CORS and the session cookie as a browser applies them: Debian's Chromium (playwright-core)
 * opens a page of the Console's origin and a page of another origin (both on 127.0.0.1, other
 * ports), and each calls the agent with `fetch(..., { credentials: 'include' })`.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const servers: Server[] = [];
let context: BrowserContext;
let profile: string;
let agentUrl: string;
let consolePage: Page;
let otherPage: Page;
/** What the agent answered, as `METHOD path status`. */
const answered: string[] = [];

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A page that serves an empty document at its origin. */
const blankPage = () =>
  listen((_request, response) => {
    response.setHeader('Content-Type', 'text/html');
    response.end('<!doctype html><title>page</title>');
  });

/** Calls the agent from `page`; resolves its status, or the browser's refusal. */
function callAgent(
  page: Page,
  init: { path: string; method?: string; authorization?: string; body?: string },
): Promise<{ status: number } | { refused: string }> {
  return page.evaluate(
    async ({ url, method, authorization, body }) => {
      try {
        const response = await fetch(url, {
          method,
          credentials: 'include',
          headers: authorization
            ? { authorization, 'content-type': 'application/json' }
            : { 'content-type': 'text/plain' },
          body,
        });
        return { status: response.status };
      } catch (error) {
        return { refused: String(error) };
      }
    },
    { url: `${agentUrl}${init.path}`, method: init.method ?? 'GET', ...init },
  );
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  const consoleOrigin = await blankPage();
  const otherOrigin = await blankPage();
  const services = createTestServices();
  const app = express();
  app.use((request, response, next) => {
    response.on('finish', () =>
      answered.push(
        `${request.method} ${request.originalUrl.split('?')[0]} ${response.statusCode}`,
      ),
    );
    next();
  });
  app.use(
    createAgentRouter({
      ...services,
      options: { ...services.options, corsOrigins: [consoleOrigin] },
    }),
  );
  agentUrl = await listen(app);

  profile = mkdtempSync(join(tmpdir(), 'canopy-cors-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  // A session cookie for the agent's host, as a front end served there could have set it.
  await context.addCookies([
    {
      name: 'forest_session_token',
      value: bearer().slice('Bearer '.length),
      url: agentUrl,
      sameSite: 'Lax',
    },
  ]);
  consolePage = await context.newPage();
  await consolePage.goto(consoleOrigin);
  otherPage = await context.newPage();
  await otherPage.goto(otherOrigin);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('the agent in a browser', () => {
  it("lets the Console's origin read the agent's answers", async () => {
    expect(
      await callAgent(consolePage, {
        path: '/forest/orders/count?timezone=UTC',
        authorization: bearer(),
      }),
    ).toEqual({ status: 200 });
    // A write, after its preflight: the browser hands the agent's answer (a 400 here) to the page.
    expect(
      await callAgent(consolePage, {
        path: '/forest/orders/101?timezone=UTC',
        method: 'PUT',
        authorization: bearer(),
        body: '{}',
      }),
    ).toEqual({ status: 400 });
  });

  it("keeps another origin's page from reading anything, even with a valid token", async () => {
    answered.length = 0;
    const read = await callAgent(otherPage, {
      path: '/forest/orders/count?timezone=UTC',
      authorization: bearer(),
    });
    expect(read).toEqual({ refused: expect.stringContaining('Failed to fetch') });
    // Its preflight got no CORS headers: the request itself was never sent.
    expect(answered).toEqual(['OPTIONS /forest/orders/count 204']);
  });

  it("does not take the cookie alone from another origin's page, for a read or a write", async () => {
    answered.length = 0;
    const read = await callAgent(otherPage, { path: '/forest/orders/count?timezone=UTC' });
    expect(read).toEqual({ refused: expect.stringContaining('Failed to fetch') });
    // A simple POST (no preflight): the browser sends it with the cookie, the agent refuses it.
    const write = await callAgent(otherPage, {
      path: '/forest/orders?timezone=UTC',
      method: 'POST',
      body: '{"data":{"attributes":{"reference":"forged"}}}',
    });
    expect(write).toEqual({ refused: expect.stringContaining('Failed to fetch') });
    expect(answered).toEqual(['GET /forest/orders/count 401', 'POST /forest/orders 401']);
  });
});
