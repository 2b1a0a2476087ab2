import type { RecordChangedEvent } from '@canopy/platform-protocol';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { PlatformHttpClient } from './platform-http-client';
import { RecordChangeReporter } from './record-change-reporter';

const SECRET = 'f'.repeat(64);
const lines: string[] = [];
const logger = (level: string, message: string) => lines.push(`${level} ${message}`);

function change(index: number): RecordChangedEvent {
  return {
    collection: 'orders',
    recordId: String(index),
    userId: 1,
    operation: 'update',
    fields: ['status'],
    correlationId: `request-${index}`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `check()` holds, 10 s at most: far above the milliseconds it takes, so that a loaded
 * machine does not fail it (the tests' own time limit is above that).
 */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check() && Date.now() < deadline;) await sleep(10);
}
jest.setTimeout(30_000);

/** One sandbox for the file; each test reports its own record ids and reads only those. */
describe('RecordChangeReporter against the sandbox', () => {
  let sandbox: ServerSandbox;
  let http: PlatformHttpClient;
  const received = (ids: string[], count = ids.length) =>
    sandbox
      .waitForRecordChanges((all) => all.filter((c) => ids.includes(c.recordId)).length >= count, {
        envSecret: SECRET,
      })
      .then((all) => all.filter((c) => ids.includes(c.recordId)));

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    http = new PlatformHttpClient({ serverUrl: sandbox.url, envSecret: SECRET, logger });
  });
  beforeEach(() => {
    lines.length = 0;
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    http.close();
    await sandbox?.close();
  });

  it('queues without waiting and sends the changes of one interval together, one POST each', async () => {
    const send = jest.spyOn(http, 'request');
    const reporter = new RecordChangeReporter(http, logger, { flushIntervalMs: 300 });
    for (let index = 1; index <= 3; index += 1) reporter.record(change(index));
    expect(send).not.toHaveBeenCalled();
    await sleep(30);
    expect(send).not.toHaveBeenCalled();
    expect(await received(['1', '2', '3'])).toEqual([change(1), change(2), change(3)]);
    expect(send.mock.calls.map(([path]) => path)).toEqual(
      Array(3).fill('/liana/v1/record-changes'),
    );
    await reporter.close();
  });

  it('sends at once when a batch is full, without waiting for the interval', async () => {
    const reporter = new RecordChangeReporter(http, logger, {
      batchSize: 2,
      flushIntervalMs: 10_000,
    });
    reporter.record(change(11));
    reporter.record(change(12));
    expect((await received(['11', '12'])).map((c) => c.recordId)).toEqual(['11', '12']);
    // The sandbox has them; the reporter counts them pending until the platform's answer reaches
    // it, a moment later (well before the 10 s interval).
    await until(() => reporter.pending === 0);
    expect(reporter.pending).toBe(0);
    await reporter.close();
  });

  it('retries a bounded number of times, then drops with one warning that holds no secret', async () => {
    sandbox.failRecordChanges(503);
    const send = jest.spyOn(http, 'request');
    const reporter = new RecordChangeReporter(http, logger, {
      flushIntervalMs: 5,
      retryDelayMs: 5,
      maxAttempts: 3,
    });
    reporter.record(change(21));
    await until(() => reporter.pending === 0);
    expect(reporter.pending).toBe(0);
    expect(send).toHaveBeenCalledTimes(3);
    reporter.record(change(22));
    await until(() => reporter.pending === 0);
    const warnings = lines.filter((line) => line.startsWith('Warn'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Warn Sending 1 record changes failed 3 times .*dropped/);
    expect(lines.join('\n')).not.toContain(SECRET);
    // Back up: the next change goes through.
    sandbox.failRecordChanges(null);
    reporter.record(change(23));
    expect((await received(['21', '22', '23'], 1)).map((c) => c.recordId)).toEqual(['23']);
    await reporter.close();
  });
  it('skips a change the platform refuses and sends the others of its batch once', async () => {
    const reporter = new RecordChangeReporter(http, logger, { flushIntervalMs: 5 });
    reporter.record(change(31));
    reporter.record({ ...change(32), userId: 0.5 });
    reporter.record(change(33));
    const got = await received(['31', '33']);
    await reporter.flush();
    expect(got.map((c) => c.recordId)).toEqual(['31', '33']);
    expect(reporter.pending).toBe(0);
    expect(
      lines.some((line) => line.startsWith('Debug The platform refused a record change')),
    ).toBe(true);
    expect(lines.filter((line) => line.startsWith('Warn'))).toEqual([]);
    await reporter.close();
  });
});
