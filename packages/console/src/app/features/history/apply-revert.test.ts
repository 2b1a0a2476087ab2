import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../../protocol';
import { applyRevert } from './apply-revert';

/** An agent answering each PUT by record id: a record, out of scope, or an error. */
function agent(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const client = new AgentClient({
    baseUrl: 'http://agent.test',
    timezone: 'UTC',
    getToken: () => 't',
    fetch: (async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        headers: init?.headers as Record<string, string>,
        body: JSON.parse(String(init?.body)),
      });
      const id = /\/orders\/([^?]+)/.exec(url)![1]!;
      const answer = answers[id]!;
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }) as unknown as typeof fetch,
  });
  return { client, calls };
}

describe('applying a revert', () => {
  it('sends ordinary updates under one revert correlation, with the tags of the preview, and says how each went', async () => {
    const { client, calls } = agent({
      '1': { status: 200, body: { data: { type: 'orders', id: '1', attributes: { id: 1 } } } },
      '2': { status: 200, body: { data: null } },
      '3': {
        status: 403,
        body: {
          errors: [
            {
              name: 'CustomActionRequiresApprovalError',
              detail: 'This action requires to be approved.',
              status: 403,
            },
          ],
        },
      },
      '5': {
        status: 412,
        body: {
          errors: [{ name: 'PreconditionFailedError', detail: 'The record changed', status: 412 }],
        },
      },
      '4': {
        status: 400,
        body: { errors: [{ name: 'ValidationError', detail: 'Too late', status: 400 }] },
      },
    });
    const writes = ['1', '2', '3', '4', '5'].map((recordId) => ({
      collection: 'orders',
      recordId,
      values: { status: 'late' },
    }));
    // The tags of the preview: a record changed since (5) is refused by the agent (412).
    const tags = new Map([
      ['orders\u00001', '"tag-1"'],
      ['orders\u00005', '"tag-5"'],
    ]);
    const { correlationId, outcomes } = await applyRevert(client, writes, tags);
    expect(calls).toHaveLength(5);
    expect(calls.find((call) => call.url.includes('/orders/1?'))!.headers['if-match']).toBe(
      '"tag-1"',
    );
    expect(calls.find((call) => call.url.includes('/orders/2?'))!.headers['if-match']).toBe(
      undefined,
    );
    for (const call of calls) {
      expect(call.headers['x-forest-correlation-id']).toBe(correlationId);
      expect(call.headers['x-canopy-correlation-kind']).toBe('revert');
      expect(call.headers.authorization).toBe('Bearer t');
    }
    expect(calls[0]!.body).toMatchObject({ data: { attributes: { status: 'late' } } });
    const status = Object.fromEntries(outcomes.map((o) => [o.write.recordId, o.status]));
    expect(status).toEqual({
      '1': 'done',
      '2': 'gone',
      '3': 'approval',
      '4': 'failed',
      '5': 'stale',
    });
    expect(outcomes.find((o) => o.write.recordId === '4')?.message).toBe('Too late');
  });

  it('deletes the records a change created and creates again the ones it deleted, under the same correlation; a refused delete is said per record', async () => {
    const calls: { method: string; url: string; headers: Record<string, string>; body: unknown }[] =
      [];
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'UTC',
      getToken: () => 't',
      fetch: (async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push({
          method,
          url,
          headers: init?.headers as Record<string, string>,
          body: init?.body ? JSON.parse(String(init.body)) : undefined,
        });
        if (method === 'DELETE' && url.includes('/orders/8?')) {
          return new Response(
            JSON.stringify({
              errors: [{ name: 'ForbiddenError', detail: 'Forbidden', status: 403 }],
            }),
            { status: 403 },
          );
        }
        if (method === 'DELETE') return new Response(null, { status: 204 });
        return new Response(
          JSON.stringify({
            data: { type: 'orders', id: '31', attributes: { id: 31, status: 'late' } },
          }),
          { status: 200 },
        );
      }) as unknown as typeof fetch,
    });
    const { correlationId, outcomes } = await applyRevert(client, [
      { collection: 'orders', recordId: '7', values: {}, kind: 'delete' },
      { collection: 'orders', recordId: '8', values: {}, kind: 'delete' },
      { collection: 'orders', recordId: '4', values: { status: 'late' }, kind: 'create' },
    ]);
    expect(calls.map((call) => `${call.method} ${call.url.replace(/\?.*/, '')}`).sort()).toEqual([
      'DELETE http://agent.test/forest/orders/7',
      'DELETE http://agent.test/forest/orders/8',
      'POST http://agent.test/forest/orders',
    ]);
    for (const call of calls) {
      expect(call.headers['x-forest-correlation-id']).toBe(correlationId);
      expect(call.headers['x-canopy-correlation-kind']).toBe('revert');
      expect(call.headers['if-match']).toBe(undefined);
    }
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toMatchObject({ data: { type: 'orders', attributes: { status: 'late' } } });
    const byId = Object.fromEntries(outcomes.map((o) => [o.write.recordId, o]));
    expect(byId['7']!.status).toBe('done');
    expect(byId['8']!.status).toBe('failed');
    expect(byId['8']!.message).toMatch(/does not allow/);
    expect(byId['4']).toMatchObject({ status: 'done', createdId: '31' });
  });
});
