/**
 * The first run of a newcomer, checked end to end: a fresh `git clone` of this repository's HEAD
 * in a temporary folder, the README's first command run there as written (the embedded database,
 * no DATABASE_URL), then the Console's core journeys in Chromium against that running demo, as
 * the admin and as Support, with the logins the demo printed. Ctrl-C then stops the demo (no
 * process may be left) and the clone is deleted.
 *
 * `tsx src/first-run.ts [--results FILE]`; prints `N passed, N failed`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { requestRefundApproval } from './actions';
import { openBrowser } from './browser';
import type { User } from './fixture';
import { expect, Suite } from './harness';
import { openCollection, pick, rowIds, settle, signIn } from './suite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Installing, building the Console and seeding the shop on a loaded CI machine. */
const START_TIMEOUT_MS = 6 * 60_000;
/** Each browser wait: a journey that cannot go on says so quickly instead of hanging. */
const STEP_TIMEOUT_MS = 20_000;
/** How long the admin's approval and a platform call made meanwhile may take. */
const APPROVAL_MS = 10_000;

/** The first command of the README's "Two commands" (the one that runs the demo). */
export function readmeFirstCommand(readme: string): string {
  const block = /## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  const command = block?.split('\n').find((line) => line.trim() && !line.startsWith('#'));
  if (!command) throw new Error('README.md has no command under "Two commands"');
  return command.trim();
}

/**
 * The environment of a newcomer's shell: this process's, without what the test run itself adds
 * (pnpm's npm_* variables and node_modules/.bin on the PATH, CI, a DATABASE_URL, NODE_OPTIONS).
 */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(npm_|pnpm_)/i.test(name) &&
        !['CI', 'DATABASE_URL', 'NODE_OPTIONS', 'INIT_CWD', 'PNPM_SCRIPT_SRC_DIR'].includes(name),
    ),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  return env;
}

interface Demo {
  process: ChildProcess;
  consoleUrl: string;
  admin: User;
  support: User;
}

/** The demo's process group has no process left. */
function groupGone(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs `command` in `cwd`, in a process group of its own (as a terminal runs it), echoing its
 * output, until it prints the Console URL and both logins.
 */
function startDemo(command: string, cwd: string, output: string[]): Promise<Demo> {
  const child = spawn('sh', ['-c', command], {
    cwd,
    env: newcomerEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const found: Record<string, RegExpExecArray> = {};
    let pending = '';
    const timer = setTimeout(
      () => reject(new Error(`no Console URL and logins within ${START_TIMEOUT_MS / 60_000} min`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        console.log(`    │ ${line}`);
        for (const [key, pattern] of Object.entries({
          console: /^Console: (http\S+)$/,
          admin: /^Admin login: (\S+) \/ (\S+) \(team (\w+)/,
          support: /^Support login: (\S+) \/ (\S+) \(team (\w+)/,
        })) {
          const match = pattern.exec(line.trim());
          if (match) found[key] = match;
        }
      }
      const { console: consoleLine, admin, support } = found;
      if (consoleLine && admin && support) {
        clearTimeout(timer);
        const user = (match: RegExpExecArray): User => ({
          email: match[1]!,
          password: match[2]!,
          team: match[3]!,
        });
        resolve({
          process: child,
          consoleUrl: consoleLine[1]!,
          admin: user(admin),
          support: user(support),
        });
      } else if (output.some((line) => line.includes('Press Ctrl-C to stop'))) {
        clearTimeout(timer);
        reject(
          new Error(
            'the demo is running but did not print the lines "Console: <url>", ' +
              '"Admin login: <email> / <password> (team …" and "Support login: …"',
          ),
        );
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the command ended (${signal ?? `exit ${code}`}) before the Console URL`));
    });
    child.once('error', reject);
    // Stopped at the end, or here on a failed start.
    startedChildren.push(child);
  });
}

const startedChildren: ChildProcess[] = [];

/** Ctrl-C: SIGINT to the whole process group; then waits for every process of it to end. */
async function stopDemo(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const pid = child.pid!;
  if (groupGone(pid)) return;
  process.kill(-pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (!groupGone(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  if (!groupGone(pid)) {
    process.kill(-pid, 'SIGKILL');
    throw new Error(`processes of the demo were still running ${timeoutMs / 1000} s after Ctrl-C`);
  }
}

/** The platform's answer to a call the signed-in console page makes, with its time. */
async function platformCallFromPage(
  page: Page,
  path: string,
  timeoutMs: number,
): Promise<{ status: number; ms: number }> {
  return page.evaluate(
    async ({ path, timeoutMs }) => {
      const token = JSON.parse(sessionStorage.getItem('canopy.console.platform') ?? 'null') as {
        accessToken: string;
      } | null;
      const started = performance.now();
      try {
        const response = await fetch(path, {
          headers: { authorization: `Bearer ${token?.accessToken}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { status: response.status, ms: performance.now() - started };
      } catch {
        return { status: 0, ms: performance.now() - started };
      }
    },
    { path, timeoutMs },
  );
}

async function runJourneys(suite: Suite, demo: Demo): Promise<void> {
  // A browser (profile) for each persona, each opened by its first journey.
  const browsers: Awaited<ReturnType<typeof openBrowser>>[] = [];
  const browser = async () => {
    const opened = await openBrowser();
    opened.context.setDefaultTimeout(STEP_TIMEOUT_MS);
    browsers.push(opened);
    return opened.context;
  };
  let admin: Page | undefined;
  let support: Page | undefined;
  let approvalId: string | undefined;
  try {
    await suite.test('(a) the admin signs in and browses a collection', async () => {
      ({ page: admin } = await signIn(await browser(), demo, demo.admin));
      await openCollection(admin, 'Orders');
      expect((await rowIds(admin)).length > 0, 'the orders table has rows');
      await openCollection(admin, 'Customers');
      expect((await rowIds(admin)).length > 0, 'the customers table has rows');
    });

    // Before the approval (d): a platform that hangs there would fail this journey for that.
    await suite.test('(e) an edited order stays on page 1 of the orders list', async () => {
      expect(admin, 'the admin signed in (a)');
      await openCollection(admin, 'Orders');
      await settle(admin);
      expect(!new URL(admin.url()).searchParams.has('sort'), `no explicit sort: ${admin.url()}`);
      const [id] = await rowIds(admin);
      const row = admin.locator(`tbody tr[data-record-id="${id}"]`);
      const status = (await row.textContent())?.includes('delivered') ? 'shipped' : 'delivered';
      await row.locator('td').nth(1).click();
      await admin.waitForURL(new RegExp(`/data/orders/${id}$`));
      await admin.getByRole('link', { name: 'Edit' }).click();
      await admin.getByRole('heading', { name: /^Edit/ }).waitFor();
      await pick(admin, 'Status', status);
      await admin.getByRole('button', { name: 'Save changes' }).click();
      await admin.waitForURL(/\/data\/orders\/\d+$/);
      await admin.locator('[data-field="status"]').getByText(status).waitFor();
      await openCollection(admin, 'Orders');
      await settle(admin);
      const page1 = await rowIds(admin);
      expect(
        page1.includes(id!),
        `order ${id} (edited) is no longer on page 1 of the list: ${page1.slice(0, 10).join(', ')}…`,
      );
    });

    await suite.test('(b) Support signs in and lands on customer rows', async () => {
      const context = await browser();
      // Kept when the first screen is an error (signIn then fails with the console's message):
      // the refund request (c) goes on from it.
      support = await context.newPage();
      await signIn(context, demo, demo.support, support);
      if (!/\/data\/customers(\?|$)/.test(support.url()))
        await openCollection(support, 'Customers');
      await settle(support);
      expect((await rowIds(support)).length > 0, 'Support sees customers (the team Europe ones)');
    });

    await suite.test(
      '(c) Support requests a refund of an order (it needs an approval)',
      async () => {
        expect(support, 'Support signed in (b)');
        ({ approvalId } = await requestRefundApproval(support, 'late', 'First-run check'));
      },
    );

    await suite.test(
      `(d) the admin approves it within ${APPROVAL_MS / 1000} s while another platform call answers, and Support sees it approved`,
      async () => {
        expect(admin && support && approvalId, 'the admin signed in (a), the request filed (c)');
        await admin.getByRole('link', { name: 'Approvals' }).click();
        const card = admin.getByTestId(`approval-${approvalId}`);
        await card.waitFor();
        const started = Date.now();
        await card.getByRole('button', { name: 'Approve and run' }).click();
        // The same platform, meanwhile: the admin's workspaces (what every console page reads).
        const other = await platformCallFromPage(admin, '/v1/me/workspaces', APPROVAL_MS);
        expect(
          other.status === 200,
          `GET /v1/me/workspaces during the approval answered ${other.status || `nothing within ${APPROVAL_MS / 1000} s`}`,
        );
        await card
          .getByText(/Refunded/)
          .first()
          .waitFor({ timeout: APPROVAL_MS });
        console.log(
          `    (approval ran in ${Date.now() - started} ms; /v1/me/workspaces meanwhile ${Math.round(other.ms)} ms)`,
        );
        await support.getByRole('link', { name: 'Approvals' }).click();
        // Mantine's segmented control hides its radio inputs: click the label.
        await support.locator('label', { hasText: 'My requests' }).click();
        await support
          .getByTestId(`approval-${approvalId}`)
          .getByText('approved', { exact: true })
          .waitFor();
      },
    );
  } finally {
    for (const opened of browsers) await opened.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { results: { type: 'string' } } });
  const suite = new Suite('first run from a fresh clone');
  const command = readmeFirstCommand(readFileSync(join(root, 'README.md'), 'utf8'));
  const clone = mkdtempSync(join(tmpdir(), 'canopy-first-run-'));
  const output: string[] = [];
  let demo: Demo | undefined;
  try {
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
    const sha = head.stdout.trim();
    console.log(`fresh clone of ${sha.slice(0, 12)} in ${clone}; running: ${command}`);
    for (const args of [
      ['clone', '--quiet', '--no-checkout', root, clone],
      ['-C', clone, 'checkout', '--quiet', '--detach', sha],
    ]) {
      const git = spawnSync('git', args, { encoding: 'utf8' });
      if (git.status !== 0) throw new Error(`git ${args.join(' ')}: ${git.stderr}`);
    }

    const started = Date.now();
    await suite.test(
      'the README first command prints the Console URL and both logins',
      async () => {
        demo = await startDemo(command, clone, output);
        console.log(
          `    (ready ${Math.round((Date.now() - started) / 1000)} s after the command started)`,
        );
      },
    );
    if (demo) {
      await suite.test('the Console loads at the printed URL', async () => {
        const response = await fetch(demo!.consoleUrl, {
          headers: { accept: 'text/html' },
          signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
        });
        const html = await response.text();
        expect(
          response.status === 200 && html.includes('<script'),
          `${demo!.consoleUrl} answered ${response.status}: ${html.slice(0, 200)}`,
        );
      });
      await suite.test('the printed curl lines answer 200 and no token is printed', async () => {
        const deadline = Date.now() + STEP_TIMEOUT_MS;
        while (!output.some((line) => line.includes('Press Ctrl-C')) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        // A JSON Web Token starts with the base64url of `{"`: none may reach the terminal.
        const leaked = output.filter((line) => /eyJ[\w-]{10,}/.test(line));
        expect(leaked.length === 0, `${leaked.length} printed line(s) hold a token`);
        const curls = output.map((line) => line.trim()).filter((line) => line.startsWith('curl '));
        expect(curls.length === 2, `two curl lines printed: ${curls.length}`);
        for (const line of curls) {
          const run = spawnSync('bash', ['-c', `${line} -s -o /dev/null -w '%{http_code}'`], {
            encoding: 'utf8',
            timeout: STEP_TIMEOUT_MS,
          });
          expect(
            run.stdout === '200',
            `${line.split("'")[1]} answered ${run.stdout} ${run.stderr}`,
          );
        }
      });
      await runJourneys(suite, demo);
    }
    await suite.test('Ctrl-C stops the demo and leaves no process', async () => {
      expect(demo, 'the demo started');
      await stopDemo(demo.process);
      expect(
        output.some((line) => line.includes('Stopping')),
        'the demo said it was stopping',
      );
    });
  } finally {
    // Whatever a failed start or stop left behind.
    for (const child of startedChildren)
      if (!groupGone(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    rmSync(clone, { recursive: true, force: true });
  }
  const { passed, failed } = suite.summary();
  if (values.results)
    writeFileSync(values.results, JSON.stringify({ passed, failed, results: suite.results }));
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

await main();
