import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { ActivityLogReporter } from './activity-log-reporter';
import type { ActivityLogInput } from './agent-services';
import { PlatformHttpClient } from './platform-http-client';

const SECRET = 'e'.repeat(64);
const lines: string[] = [];
const logger = (level: string, message: string) => lines.push(`${level} ${message}`);

function entry(index: number): ActivityLogInput {
  return {
    type: 'read',
    action: 'index',
    label: `listed orders ${index}`,
    userId: 1,
    renderingId: 1,
    collectionName: 'orders',
    recordIds: [String(index)],
  };
}

// `failedOnce` waits up to 10 s for what takes milliseconds, so that a loaded machine does not
// fail it; the tests' own time limit is above that.
jest.setTimeout(30_000);

/** Resolves once a line starting with `start` was logged (a send failed), or fails after 10 s. */
async function failedOnce(start: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!lines.some((line) => line.startsWith(start))) {
    if (Date.now() > deadline) throw new Error(`No "${start}" in the log: ${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ActivityLogReporter against the sandbox', () => {
  let sandbox: ServerSandbox;
  let http: PlatformHttpClient;

  beforeEach(async () => {
    sandbox = await createServerSandbox(0);
    http = new PlatformHttpClient({ serverUrl: sandbox.url, envSecret: SECRET, logger });
    lines.length = 0;
  });

  afterEach(async () => {
    http.close();
    await sandbox.close();
  });

  it('queues without waiting and sends batches off the request path', async () => {
    const send = jest.spyOn(http, 'request');
    const reporter = new ActivityLogReporter(http, logger, { batchSize: 100, flushIntervalMs: 20 });
    for (let index = 0; index < 250; index += 1) reporter.record(entry(index));
    expect(send).not.toHaveBeenCalled();
    const logs = await sandbox.waitForActivityLogs((received) => received.length === 250, {
      envSecret: SECRET,
    });
    expect(
      send.mock.calls.map(([, request]) => (request?.body as { logs: unknown[] }).logs.length),
    ).toEqual([100, 100, 50]);
    expect(logs[0]).toMatchObject({
      type: 'read',
      action: 'index',
      label: 'listed orders 0',
      userId: 1,
      renderingId: 1,
      collectionName: 'orders',
      recordIds: ['0'],
    });
    expect(new Set(logs.map((log) => log.id)).size).toBe(250);
    await reporter.close();
  });

  it('sends up to 500 logs per request by default', async () => {
    const send = jest.spyOn(http, 'request');
    const reporter = new ActivityLogReporter(http, logger, { flushIntervalMs: 20 });
    for (let index = 0; index < 1050; index += 1) reporter.record(entry(index));
    await sandbox.waitForActivityLogs((received) => received.length === 1050, {
      envSecret: SECRET,
    });
    expect(
      send.mock.calls.map(([, request]) => (request?.body as { logs: unknown[] }).logs.length),
    ).toEqual([500, 500, 50]);
    await reporter.close();
  });

  it('sends at most 1000 logs per request, the most the platform accepts', async () => {
    const send = jest.spyOn(http, 'request');
    const reporter = new ActivityLogReporter(http, logger, {
      batchSize: 5000,
      flushIntervalMs: 20,
    });
    for (let index = 0; index < 1050; index += 1) reporter.record(entry(index));
    await sandbox.waitForActivityLogs((received) => received.length === 1050, {
      envSecret: SECRET,
    });
    expect(
      send.mock.calls.map(([, request]) => (request?.body as { logs: unknown[] }).logs.length),
    ).toEqual([1000, 50]);
    await reporter.close();
  });

  it('keeps failed batches and retries them with backoff once the platform is back', async () => {
    const port = sandbox.port;
    await sandbox.close();
    const reporter = new ActivityLogReporter(http, logger, {
      flushIntervalMs: 10,
      retryDelayMs: 50,
    });
    reporter.record(entry(1));
    reporter.record(entry(2));
    await failedOnce('Warn Sending 2 activity logs failed');
    expect(reporter.pending).toBe(2);
    sandbox = await createServerSandbox(port);
    const logs = await sandbox.waitForActivityLogs((received) => received.length === 2, {
      envSecret: SECRET,
    });
    expect(logs.map((log) => log.label)).toEqual(['listed orders 1', 'listed orders 2']);
    await reporter.close();
  });

  it('sends the time of the operation, not of the send, and resends a log unchanged', async () => {
    const port = sandbox.port;
    await sandbox.close();
    const send = jest.spyOn(http, 'request');
    const reporter = new ActivityLogReporter(http, logger, {
      flushIntervalMs: 60,
      retryDelayMs: 80,
    });
    const before = Date.now();
    reporter.record(entry(1));
    const after = Date.now();
    // The platform comes back once an attempt has failed, so that the log is sent again.
    await failedOnce('Warn Sending 1 activity logs failed');
    sandbox = await createServerSandbox(port);
    const logs = await sandbox.waitForActivityLogs((received) => received.length === 1, {
      envSecret: SECRET,
    });
    const sent = send.mock.calls.map(
      ([, request]) => (request?.body as { logs: { id: string; createdAt: string }[] }).logs[0],
    );
    expect(sent.length).toBeGreaterThanOrEqual(2);
    const createdAt = Date.parse(logs[0]!.createdAt as string);
    expect(logs[0]!.createdAt).toBe(new Date(createdAt).toISOString());
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
    // Every attempt sends the same log; the platform keeps its time (its id may be its own).
    for (const attempt of sent) expect(attempt).toEqual(sent[0]);
    expect(sent[0]).toEqual({ id: expect.any(String), createdAt: logs[0]!.createdAt, ...entry(1) });
    await reporter.close();
  });

  it('is bounded: the oldest logs are dropped with one warning', async () => {
    await sandbox.close();
    const reporter = new ActivityLogReporter(http, logger, {
      maxQueueSize: 3,
      flushIntervalMs: 60_000,
    });
    for (let index = 0; index < 5; index += 1) reporter.record(entry(index));
    expect(reporter.pending).toBe(3);
    expect(lines.filter((line) => line.includes('queue is full'))).toHaveLength(1);
    await reporter.close(200);
    expect(lines.some((line) => line.includes('3 activity logs could not be sent'))).toBe(true);
    sandbox = await createServerSandbox(0);
  });

  it('flushes what is queued on close, before the flush interval', async () => {
    const reporter = new ActivityLogReporter(http, logger, { flushIntervalMs: 60_000 });
    reporter.record(entry(1));
    await reporter.close();
    expect(sandbox.activityLogs(SECRET)).toHaveLength(1);
    reporter.record(entry(2));
    expect(reporter.pending).toBe(0);
  });
});
