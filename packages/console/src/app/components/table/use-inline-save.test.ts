// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AgentError, type AgentClient, type AgentRecord } from '../../../protocol';
import { InlineConflict, InlineSaveError, useInlineSave } from './use-inline-save';

const record = (id: string, email: string): AgentRecord =>
  ({ id, type: 'customers', values: { email }, toOne: {} }) as unknown as AgentRecord;

function setup(
  update: AgentClient['update'],
  getTagged: AgentClient['getTagged'] = async () => ({ record: null, etag: null }),
) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['list', 'w', 'customers'], [record('1', 'a@x'), record('2', 'b@x')]);
  const calls: unknown[] = [];
  const client = {
    update: async (...args: Parameters<AgentClient['update']>) => {
      calls.push(args.filter((arg) => arg !== undefined));
      return update(...args);
    },
    getTagged,
  } as unknown as AgentClient;
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, children);
  const { result } = renderHook(() => useInlineSave(client, 'customers'), { wrapper });
  return { save: result.current, calls, queryClient };
}

describe('useInlineSave', () => {
  it('sends the one attribute and shows the stored value in the cached page', async () => {
    const { save, calls, queryClient } = setup(async () => record('2', 'new@x'));
    await save(record('2', 'b@x'), 'email', 'new@x');
    expect(calls).toEqual([['customers', '2', { email: 'new@x' }]]);
    const rows = queryClient.getQueryData<AgentRecord[]>(['list', 'w', 'customers']);
    expect(rows?.map((row) => row.values.email)).toEqual(['a@x', 'new@x']);
  });

  it("throws the agent's refusal in the user's words", async () => {
    const { save } = setup(async () => {
      throw new AgentError(
        400,
        `'email' failed validation rule: 'Contains("@")'`,
        'ValidationError',
      );
    });
    const refusal = await save(record('1', 'a@x'), 'email', 'nope').catch((error) => error);
    expect(refusal).toBeInstanceOf(InlineSaveError);
    expect(refusal.message).toBe('Email must contain “@”.');
  });

  it('says when the record is out of reach', async () => {
    const { save } = setup(async () => null);
    await expect(save(record('1', 'a@x'), 'email', 'c@x')).rejects.toThrow(/outside/);
  });

  describe('a record changed since the edit started', () => {
    const tagged =
      (email: string, etag = '"t1"') =>
      async () => ({
        record: record('1', email),
        etag,
      });
    const stale = (email: string, etag: string) =>
      new AgentError(412, 'The record changed since you read it', 'PreconditionFailedError', {
        etag,
        current: { id: 1, email, name: 'x' },
      });

    it('sends the tag read at the edit start as If-Match', async () => {
      const { save, calls } = setup(async () => record('1', 'new@x'), tagged('a@x'));
      const base = save.begin!(record('1', 'a@x'), 'email');
      await save(record('1', 'a@x'), 'email', 'new@x', base);
      expect(calls).toEqual([['customers', '1', { email: 'new@x' }, '"t1"']]);
    });

    it('refuses at once a value that changed before the edit started (the row was stale)', async () => {
      const { save, calls } = setup(async () => record('1', 'new@x'), tagged('theirs@x', '"t2"'));
      const base = save.begin!(record('1', 'a@x'), 'email');
      const refusal = await save(record('1', 'a@x'), 'email', 'mine@x', base).catch((e) => e);
      expect(refusal).toBeInstanceOf(InlineConflict);
      expect(refusal).toMatchObject({ theirs: 'theirs@x', etag: '"t2"' });
      expect(calls).toEqual([]);
    });

    it('shows their value of the field on a 412, and writes nothing more', async () => {
      const { save, calls } = setup(async () => {
        throw stale('theirs@x', '"t2"');
      }, tagged('a@x'));
      const base = save.begin!(record('1', 'a@x'), 'email');
      const refusal = await save(record('1', 'a@x'), 'email', 'mine@x', base).catch((e) => e);
      expect(refusal).toBeInstanceOf(InlineConflict);
      expect(refusal).toMatchObject({ theirs: 'theirs@x', etag: '"t2"' });
      expect(calls).toHaveLength(1);
    });

    it('saves again over the new tag when only another field changed', async () => {
      let first = true;
      const { save, calls } = setup(async () => {
        if (first) {
          first = false;
          throw stale('a@x', '"t2"');
        }
        return record('1', 'mine@x');
      }, tagged('a@x'));
      const base = save.begin!(record('1', 'a@x'), 'email');
      await save(record('1', 'a@x'), 'email', 'mine@x', base);
      expect(calls).toEqual([
        ['customers', '1', { email: 'mine@x' }, '"t1"'],
        ['customers', '1', { email: 'mine@x' }, '"t2"'],
      ]);
    });

    it('says a record deleted since in words', async () => {
      const { save } = setup(async () => {
        throw new AgentError(412, 'The record no longer exists', 'PreconditionFailedError', {});
      }, tagged('a@x'));
      const base = save.begin!(record('1', 'a@x'), 'email');
      await expect(save(record('1', 'a@x'), 'email', 'b@x', base)).rejects.toThrow(/deleted since/);
    });
  });
});
