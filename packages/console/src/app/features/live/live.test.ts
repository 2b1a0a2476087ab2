import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  LiveStream,
  resumeUrl,
  type EventSourceLike,
  type LiveStatus,
} from './live-client';
import { fallbackInterval, PresenceStore, staleQueries } from './live-events';
import { applyMerge, mergePlan, recordDiff } from './record-diff';
import { insertMention, mentionAt, moveHighlight } from './mention-query';
import { initialsOf } from './use-members';
import { inboxText } from './inbox-text';

/** An EventSource the test drives: it records its URL and lets the test send events or fail. */
class FakeSource implements EventSourceLike {
  static all: FakeSource[] = [];
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, id: string, data: unknown) {
    const event = { data: JSON.stringify(data), lastEventId: id } as MessageEvent<string>;
    this.listeners.get(type)?.forEach((listener) => listener(event));
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
  close() {
    this.closed = true;
  }
}

describe('LiveStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.all = [];
  });
  afterEach(() => vi.useRealTimers());

  function start(ticket: () => Promise<string>) {
    const statuses: LiveStatus[] = [];
    const events: { type: string; data: unknown }[] = [];
    const stream = new LiveStream({
      ticket,
      onStatus: (status) => statuses.push(status),
      onEvent: (event) => events.push(event),
      open: (url) => new FakeSource(url),
      random: () => 1,
    });
    stream.start();
    return { stream, statuses, events };
  }

  it('opens with a ticket, delivers events, and resumes after a drop with a new ticket and the last id', async () => {
    let n = 0;
    const { stream, statuses, events } = start(async () => `/live?ticket=t${++n}`);
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeSource.all[0]!;
    expect(first.url).toBe('/live?ticket=t1');
    first.emit('ready', '7', { streamId: 's1' });
    first.emit('record-changed', '8', { collection: 'orders', recordId: '3' });
    expect(statuses).toEqual(['connecting', 'open']);
    expect(stream.streamId).toBe('s1');
    expect(events.map((e) => e.type)).toEqual(['ready', 'record-changed']);

    first.fail();
    expect(first.closed).toBe(true);
    expect(statuses.at(-1)).toBe('down');
    expect(stream.streamId).toBeUndefined();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.all[1]!.url).toBe('/live?ticket=t2&lastEventId=8');
    // Events of the closed source are ignored.
    first.emit('mention', '9', {});
    expect(events).toHaveLength(2);
    stream.stop();
  });

  it('backs off exponentially while the ticket cannot be had, and starts over once open', async () => {
    let ok = false;
    const asked: number[] = [];
    const { stream, statuses } = start(async () => {
      asked.push(Date.now());
      if (!ok) throw new Error('offline');
      return '/live?ticket=x';
    });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(asked.map((at) => at - asked[0]!)).toEqual([0, 1000, 3000, 7000]);
    expect(statuses).toEqual(['connecting', 'down', 'down', 'down', 'down']);
    ok = true;
    await vi.advanceTimersByTimeAsync(8000);
    FakeSource.all[0]!.emit('ready', '1', { streamId: 's' });
    expect(statuses.at(-1)).toBe('open');
    FakeSource.all[0]!.fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSource.all).toHaveLength(2);
    stream.stop();
    FakeSource.all[1]!.fail();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSource.all).toHaveLength(2);
  });

  it('computes jittered, capped delays and resume URLs', () => {
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(500);
    expect(backoffDelay(3, 1000, 30_000, () => 1)).toBe(8000);
    expect(backoffDelay(20, 1000, 30_000, () => 1)).toBe(30_000);
    expect(resumeUrl('/live?ticket=a', undefined)).toBe('/live?ticket=a');
    expect(resumeUrl('/live', '5')).toBe('/live?lastEventId=5');
  });
});

describe('live events', () => {
  it('makes the queries an event concerns stale, never the records', () => {
    expect(staleQueries('approval-requested', 'Shop/Production')).toEqual([
      ['approvals', 'Shop/Production'],
      ['inbox'],
    ]);
    expect(staleQueries('rights-changed', 'w')).toEqual([['me-environment']]);
    expect(staleQueries('record-changed', 'w')).toEqual([]);
    expect(staleQueries('resync', 'w').length).toBeGreaterThan(2);
  });

  it('polls only while the stream is down', () => {
    expect(fallbackInterval('open', 5000)).toBe(false);
    expect(fallbackInterval('connecting', 5000)).toBe(false);
    expect(fallbackInterval('down', 5000)).toBe(5000);
  });

  it('keeps who has a record open, without the viewer', () => {
    const store = new PresenceStore();
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.version));
    store.apply({ collection: 'orders', recordId: '3', userIds: [1, 2] });
    expect(store.others('orders', '3', 1)).toEqual([2]);
    store.apply({ collection: 'orders', recordId: '3', userIds: [] });
    expect(store.others('orders', '3', 1)).toEqual([]);
    expect(seen).toEqual([1, 2]);
  });
});

describe('record diff and merge', () => {
  const fields = ['status', 'total', 'note', 'customer'];
  it('lists the changed fields in schema order, skipping what the new version lacks', () => {
    expect(
      recordDiff(
        fields,
        { status: 'paid', total: 5, note: null },
        { note: undefined, total: 6, status: 'paid' },
      ),
    ).toEqual([{ field: 'total', before: 5, after: 6 }]);
  });

  it('separates conflicts from their changes and keeps mine elsewhere', () => {
    const base = { status: 'paid', total: 5, note: 'a', customer: '1' };
    const mine = { status: 'shipped', total: 5, note: 'b', customer: '2' };
    const theirs = { status: 'refunded', total: 7, note: 'b' };
    const plan = mergePlan(fields, base, mine, theirs);
    expect(plan).toEqual({
      conflicts: [{ field: 'status', theirs: 'refunded', mine: 'shipped' }],
      theirsOnly: ['total'],
    });
    const merged = applyMerge(plan, base, mine, theirs, { status: 'theirs' });
    expect(merged.values).toEqual({ status: 'refunded', total: 7, note: 'b', customer: '2' });
    // The next save sends what differs from the record now: the relation only.
    expect(merged.base).toEqual({ status: 'refunded', total: 7, note: 'b', customer: '1' });
    expect(applyMerge(plan, base, mine, theirs, {}).values.status).toBe('shipped');
  });
});

describe('mentions', () => {
  it('finds the mention being typed at the caret', () => {
    expect(mentionAt('Hi @bo', 6)).toEqual({ start: 3, prefix: 'bo' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, prefix: '' });
    expect(mentionAt('mail ada@example', 16)).toBeNull();
    expect(mentionAt('Hi @bob there', 13)).toBeNull();
  });

  it('replaces the typed prefix with the email and puts the caret after it', () => {
    const text = 'Hi @bo, see this';
    expect(insertMention(text, 6, { start: 3, prefix: 'bo' }, 'bob@example.com')).toEqual({
      text: 'Hi @bob@example.com , see this',
      caret: 20,
    });
    expect(insertMention('@b', 2, { start: 0, prefix: 'b' }, 'b@x.io').text).toBe('@b@x.io ');
  });

  it('moves the highlight with the arrows, wrapping around', () => {
    expect(moveHighlight(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveHighlight(2, 3, 'ArrowDown')).toBe(0);
    expect(moveHighlight(0, 3, 'ArrowUp')).toBe(2);
    expect(moveHighlight(0, 0, 'ArrowUp')).toBe(-1);
  });

  it('makes initials of a name, or of the email', () => {
    expect(initialsOf({ name: 'Ada Lovelace', email: 'a@x.io' })).toBe('AL');
    expect(initialsOf({ name: '', email: 'bob@x.io' })).toBe('B');
    expect(initialsOf(undefined)).toBe('?');
  });
});

describe('inbox', () => {
  const by = { id: 1, email: 'ada@x.io', name: 'Ada' };
  const base = { object: 'inbox-item' as const, id: 3, by, createdAt: '', readAt: null };
  it('says what each item is', () => {
    expect(
      inboxText({
        ...base,
        kind: 'mention',
        note: { id: 1, title: 'Late', collectionName: 'orders', recordId: '7' },
        approval: null,
      }),
    ).toBe('Ada mentioned you in “Late” on Orders #7');
    expect(
      inboxText({
        ...base,
        by: null,
        kind: 'approval',
        note: null,
        approval: {
          id: 2,
          collectionName: 'order_lines',
          actionName: 'Refund',
          recordIds: ['1', '2'],
          status: 'pending',
        },
      }),
    ).toBe('Someone asks to approve Refund on 2 records of Order lines');
    expect(
      inboxText({
        ...base,
        kind: 'approval',
        note: null,
        approval: {
          id: 3,
          collectionName: 'orders',
          actionName: 'Refund order',
          recordIds: ['19'],
          status: 'pending',
        },
      }),
    ).toMatch(/ asks to approve Refund order on 1 record of Orders$/);
  });
});
