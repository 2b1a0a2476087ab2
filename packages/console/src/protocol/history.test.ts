import { describe, expect, it } from 'vitest';
import { AgentClient } from './client';
import {
  formatHistoryValue,
  groupByCorrelation,
  historyChanges,
  historyQuery,
  historyWhat,
  historyWho,
  nextHistoryPage,
  type HistoryEntry,
  type HistoryPage,
} from './history';

function entry(patch: Partial<HistoryEntry>): HistoryEntry {
  return {
    id: 1,
    timestamp: '2026-11-02T09:16:03.120Z',
    operation: 'update',
    collection: 'orders',
    recordId: '101',
    userId: 7,
    userFirstName: 'Maria',
    userLastName: 'Lopez',
    userEmail: 'maria@shop.example',
    actionName: null,
    correlationKey: 'k1',
    previousValues: { status: 'paid' },
    newValues: { status: 'shipped' },
    status: 'done',
    ...patch,
  };
}

function page(count: number, size: number): HistoryPage {
  return { data: Array.from({ length: size }, (_, id) => entry({ id })), meta: { count } };
}

describe('record history', () => {
  it('lists what an update, a create and a delete changed, before and after', () => {
    expect(historyChanges(entry({}))).toEqual([
      { field: 'status', before: 'paid', after: 'shipped' },
    ]);
    expect(
      historyChanges(
        entry({ operation: 'create', previousValues: null, newValues: { id: 5, note: null } }),
      ),
    ).toEqual([
      { field: 'id', before: undefined, after: 5 },
      { field: 'note', before: undefined, after: null },
    ]);
    expect(
      historyChanges(entry({ operation: 'delete', previousValues: { id: 5 }, newValues: null })),
    ).toEqual([{ field: 'id', before: 5, after: undefined }]);
    expect(
      historyChanges(
        entry({
          operation: 'action',
          previousValues: { note: 'fragile' },
          newValues: { type: 'Success', message: 'Shipped' },
        }),
      ),
    ).toEqual([]);
  });

  it('says who and what', () => {
    expect(historyWho(entry({}))).toBe('Maria Lopez');
    expect(historyWho(entry({ userFirstName: null, userLastName: null }))).toBe(
      'maria@shop.example',
    );
    expect(
      historyWho(entry({ userFirstName: null, userLastName: null, userEmail: null, userId: null })),
    ).toBe('Unknown user');
    expect(historyWhat(entry({}))).toBe('Updated');
    expect(historyWhat(entry({ operation: 'action', actionName: 'Refund' }))).toBe('Ran “Refund”');
    expect(historyWhat(entry({ operation: 'action_failed', actionName: 'Refund' }))).toBe(
      '“Refund” failed',
    );
  });

  it('formats values, and pages until every entry is loaded', () => {
    expect(formatHistoryValue(undefined)).toBe('—');
    expect(formatHistoryValue(null)).toBe('—');
    expect(formatHistoryValue('[REDACTED]')).toBe('[REDACTED]');
    expect(formatHistoryValue(12.5)).toBe('12.5');
    expect(formatHistoryValue(false)).toBe('false');
    expect(formatHistoryValue({ a: [1] })).toBe('{"a":[1]}');
    expect(nextHistoryPage([page(45, 20)])).toBe(2);
    expect(nextHistoryPage([page(45, 20), page(45, 20)])).toBe(3);
    expect(nextHistoryPage([page(45, 20), page(45, 20), page(45, 5)])).toBeUndefined();
    expect(nextHistoryPage([page(0, 0)])).toBeUndefined();
  });

  it('reads a page of history and the capabilities from the agent', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const answers = [
      new Response(JSON.stringify({ data: [entry({})], meta: { count: 21 } })),
      new Response(JSON.stringify({ agentCapabilities: { canUseAuditTrail: true } })),
      new Response('{"errors":[{"name":"NotFoundError","detail":"Record does not exists"}]}', {
        status: 404,
      }),
    ];
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'Europe/Paris',
      getToken: () => 't',
      fetch: (async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        return answers.shift()!;
      }) as unknown as typeof fetch,
    });
    expect(await client.recordHistory('order lines', '1|EU', 2)).toEqual({
      data: [entry({})],
      meta: { count: 21 },
    });
    expect(calls[0]!.url).toBe(
      'http://agent.test/forest/_audit-trail/order%20lines/1%7CEU?timezone=Europe%2FParis&page[number]=2&page[size]=20',
    );
    expect(await client.capabilities()).toEqual({ canUseAuditTrail: true });
    expect(calls[1]!.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[1]!.init?.body))).toEqual({ collectionNames: [] });
    await expect(client.recordHistory('orders', '2')).rejects.toMatchObject({
      status: 404,
      message: 'Record does not exists',
    });
  });
});

describe('history filters and groups', () => {
  it('asks the first page without page[number] (for the people) and sends every filter', () => {
    expect(historyQuery('UTC', 1)).toBe('timezone=UTC&page[size]=20');
    const query = new URLSearchParams(
      historyQuery('Europe/Paris', 2, 20, {
        userIds: [3, 7],
        fields: ['status', 'total'],
        startDate: '2026-11-01',
        endDate: '2026-11-02',
        search: '  late ',
      }),
    );
    expect(Object.fromEntries(query)).toEqual({
      timezone: 'Europe/Paris',
      'page[number]': '2',
      'page[size]': '20',
      userIds: '3,7',
      fields: 'status,total',
      startDate: '2026-11-01',
      endDate: '2026-11-02',
      search: 'late',
    });
  });

  it('groups consecutive entries of one correlation', () => {
    const groups = groupByCorrelation([
      entry({ id: 3, correlationKey: 'a' }),
      entry({ id: 2, correlationKey: 'a' }),
      entry({ id: 1, correlationKey: 'b' }),
    ]);
    expect(groups.map((group) => [group.correlationKey, group.entries.map((e) => e.id)])).toEqual([
      ['a', [3, 2]],
      ['b', [1]],
    ]);
  });
});
