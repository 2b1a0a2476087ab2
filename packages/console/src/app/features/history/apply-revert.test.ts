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
  it('sends ordinary updates under one revert correlation and says how each went', async () => {
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
      '4': {
        status: 400,
        body: { errors: [{ name: 'ValidationError', detail: 'Too late', status: 400 }] },
      },
    });
    const writes = ['1', '2', '3', '4'].map((recordId) => ({
      collection: 'orders',
      recordId,
      values: { status: 'late' },
    }));
    const { correlationId, outcomes } = await applyRevert(client, writes);
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      expect(call.headers['x-forest-correlation-id']).toBe(correlationId);
      expect(call.headers['x-canopy-correlation-kind']).toBe('revert');
      expect(call.headers.authorization).toBe('Bearer t');
    }
    expect(calls[0]!.body).toMatchObject({ data: { attributes: { status: 'late' } } });
    const status = Object.fromEntries(outcomes.map((o) => [o.write.recordId, o.status]));
    expect(status).toEqual({ '1': 'done', '2': 'gone', '3': 'approval', '4': 'failed' });
    expect(outcomes.find((o) => o.write.recordId === '4')?.message).toBe('Too late');
  });
});
