import { describe, expect, it } from 'vitest';
import {
  changedThen,
  readAsOf,
  rowThen,
  stateBatches,
  writeAsOf,
  type RecordStateAt,
} from './as-of';
import { AgentClient } from './client';

const changed: RecordStateAt = {
  id: '7',
  existed: true,
  changedSince: true,
  changedFields: ['status'],
  values: { id: 7, status: 'pending', total: 12, pin: '[REDACTED]' },
};

describe('a list as of a time', () => {
  it('reads the moment of the address, and only an instant with its offset', () => {
    const at = '2026-03-03T09:30:00.000Z';
    expect(readAsOf(new URLSearchParams({ asOf: at }))).toBe(at);
    expect(readAsOf(new URLSearchParams({ 'payments.asOf': at }), 'payments.')).toBe(at);
    expect(readAsOf(new URLSearchParams({ asOf: '2026-03-03T10:30:00+01:00' }))).toBe(
      '2026-03-03T10:30:00+01:00',
    );
    for (const odd of ['yesterday', '2026-03-03', '2026-03-03T09:30:00', '2026-13-45T99:99:00Z']) {
      expect(readAsOf(new URLSearchParams({ asOf: odd }))).toBeUndefined();
    }
    expect(readAsOf(new URLSearchParams())).toBeUndefined();
  });

  it('sets and clears the moment, keeping the rest of the view', () => {
    const view = new URLSearchParams({ sort: '-id', page: '2' });
    const past = writeAsOf(view, '2026-03-03T09:30:00.000Z');
    expect(past.toString()).toBe('sort=-id&page=2&asOf=2026-03-03T09%3A30%3A00.000Z');
    expect(view.has('asOf')).toBe(false);
    expect(writeAsOf(past, undefined).toString()).toBe('sort=-id&page=2');
  });

  it('says how a row and a cell read then', () => {
    expect(rowThen(undefined)).toBe('same');
    expect(rowThen(changed)).toBe('changed');
    expect(rowThen({ ...changed, changedSince: false, changedFields: [] })).toBe('same');
    expect(rowThen({ ...changed, existed: false, values: null })).toBe('new');
    expect(changedThen(changed, 'status')).toBe(true);
    // Unchanged, redacted (never among the changed fields), or not in the history's values.
    expect(changedThen(changed, 'total')).toBe(false);
    expect(changedThen(changed, 'pin')).toBe(false);
    expect(changedThen({ ...changed, values: { id: 7 } }, 'status')).toBe(false);
    expect(changedThen({ ...changed, existed: false, values: null }, 'status')).toBe(false);
  });

  it('asks for at most 100 records a call, the moment and the time zone sent', async () => {
    expect(stateBatches([]).length).toBe(0);
    const ids = Array.from({ length: 250 }, (_, index) => String(index + 1));
    expect(stateBatches(ids).map((batch) => batch.length)).toEqual([100, 100, 50]);

    const calls: { url: string; body: { at: string; ids: string[] } }[] = [];
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'Europe/Paris',
      getToken: () => 't',
      fetch: (async (url: string, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { at: string; ids: string[] };
        calls.push({ url, body });
        return new Response(JSON.stringify({ data: body.ids.map((id) => ({ ...changed, id })) }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }) as unknown as typeof fetch,
    });
    const states = await client.recordStates(
      'order lines',
      ids.slice(0, 120),
      '2026-03-03T09:30:00.000Z',
    );
    expect(states.map((state) => state.id)).toEqual(ids.slice(0, 120));
    expect(calls.map((call) => call.url)).toEqual([
      'http://agent.test/forest/_audit-trail/order%20lines/states?timezone=Europe%2FParis',
      'http://agent.test/forest/_audit-trail/order%20lines/states?timezone=Europe%2FParis',
    ]);
    expect(calls.map((call) => call.body.ids.length)).toEqual([100, 20]);
    expect(calls[0]!.body.at).toBe('2026-03-03T09:30:00.000Z');
  });
});
