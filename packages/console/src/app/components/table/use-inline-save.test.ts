// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AgentError, type AgentClient, type AgentRecord } from '../../../protocol';
import { InlineSaveError, useInlineSave } from './use-inline-save';

const record = (id: string, email: string): AgentRecord =>
  ({ id, type: 'customers', values: { email }, toOne: {} }) as unknown as AgentRecord;

function setup(update: AgentClient['update']) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['list', 'w', 'customers'], [record('1', 'a@x'), record('2', 'b@x')]);
  const calls: unknown[] = [];
  const client = {
    update: async (...args: Parameters<AgentClient['update']>) => {
      calls.push(args);
      return update(...args);
    },
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
});
