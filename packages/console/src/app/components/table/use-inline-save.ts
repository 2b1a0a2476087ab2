/**
 * Saves one cell edited in a table: `PUT /{c}/{id}` with that one attribute (agent protocol
 * §8.5), then the cached pages show the new value and are refetched. The agent's refusal is
 * thrown as the user's words (error-text.ts), for the cell to show.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { AgentError, errorText, type AgentClient, type AgentRecord } from '../../../protocol';
import { rememberDenied } from '../../data';

/** A cell's save refused: what to tell the user. */
export class InlineSaveError extends Error {}

export function useInlineSave(client: AgentClient, collection: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (record: AgentRecord, field: string, value: unknown) => {
      let updated: AgentRecord | null;
      try {
        updated = await client.update(collection, record.id, { [field]: value });
      } catch (error) {
        if (error instanceof AgentError && error.status === 403)
          rememberDenied(collection, 'editEnabled');
        throw new InlineSaveError(errorText(error, { collection }).message);
      }
      if (!updated) throw new InlineSaveError('This record is outside what your team may change.');
      const stored = updated.values[field] ?? value;
      queryClient.setQueriesData<AgentRecord[]>({ queryKey: ['list'] }, (rows) =>
        Array.isArray(rows)
          ? rows.map((row) =>
              row.id === record.id && row.type === record.type
                ? { ...row, values: { ...row.values, [field]: stored } }
                : row,
            )
          : rows,
      );
      await queryClient.invalidateQueries({ queryKey: ['record'] });
      void queryClient.invalidateQueries({ queryKey: ['list'] });
    },
    [client, collection, queryClient],
  );
}
