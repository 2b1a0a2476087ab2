/**
 * Saves one cell edited in a table: `PUT /{c}/{id}` with that one attribute (agent protocol
 * §8.5), then the cached pages show the new value and are refetched. The agent's refusal is
 * thrown as the user's words (error-text.ts), for the cell to show.
 *
 * A save never overwrites a newer write silently. When the edit starts, the record is read with
 * its entity tag (`GET /{c}/{id}`, §8.3: lists carry no tag); the save sends it as `If-Match`.
 * A value that differs already from the row shown, or a `412` whose current value of the field
 * is not the one the edit started from, is thrown as an {@link InlineConflict} for the cell to
 * offer a choice; a `412` for another field only is merged (saved again with the new tag).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import {
  AgentError,
  errorText,
  type AgentClient,
  type AgentRecord,
  type ConflictData,
} from '../../../protocol';
import { sameRevertValue } from '../../../protocol/same-value';
import { rememberDenied } from '../../data';

/** A cell's save refused: what to tell the user. */
export class InlineSaveError extends Error {}

/** The record changed since the edit started: the field's value now, and the record's tag. */
export class InlineConflict extends InlineSaveError {
  constructor(
    readonly theirs: unknown,
    readonly etag: string,
  ) {
    super('Someone changed this value since you started editing.');
  }
}

/** The record as the agent has it when the edit starts (or after a conflict was settled). */
export interface CellBase {
  /** Its entity tag; absent when the agent sends none (no `If-Match` then). */
  etag?: string;
  /** The field's value on the agent. */
  current?: unknown;
  /** The value differs from the one the row shows: the row was stale when the edit started. */
  stale?: boolean;
}

export type SaveCell = ((
  record: AgentRecord,
  field: string,
  value: unknown,
  base?: Promise<CellBase>,
) => Promise<void>) & {
  /** Reads the record's tag and value when an edit starts. */
  begin?(record: AgentRecord, field: string): Promise<CellBase>;
  /** Shows `value` (theirs, after a conflict) in the cached pages. */
  adopt?(record: AgentRecord, field: string, value: unknown): void;
};

export function useInlineSave(client: AgentClient, collection: string): SaveCell {
  const queryClient = useQueryClient();
  const show = useCallback(
    (record: AgentRecord, field: string, stored: unknown) => {
      queryClient.setQueriesData<AgentRecord[]>({ queryKey: ['list'] }, (rows) =>
        Array.isArray(rows)
          ? rows.map((row) =>
              row.id === record.id && row.type === record.type
                ? { ...row, values: { ...row.values, [field]: stored } }
                : row,
            )
          : rows,
      );
    },
    [queryClient],
  );
  const save = useCallback(
    async (record: AgentRecord, field: string, value: unknown, base?: Promise<CellBase>) => {
      const known = base ? await base.catch(() => undefined) : undefined;
      if (known?.stale && known.etag) throw new InlineConflict(known.current, known.etag);
      let ifMatch = known?.etag;
      let updated: AgentRecord | null = null;
      for (let attempt = 0; ; attempt += 1) {
        try {
          updated = await client.update(collection, record.id, { [field]: value }, ifMatch);
          break;
        } catch (error) {
          if (error instanceof AgentError && error.status === 412) {
            const data = (error.data ?? {}) as ConflictData;
            if (!data.current || !data.etag) {
              throw new InlineSaveError('This record was deleted since, or is out of your reach.');
            }
            const theirs = data.current[field];
            // Another field changed: nothing to choose here, saved again over the new tag.
            if (attempt === 0 && sameRevertValue(theirs, known?.current)) {
              ifMatch = data.etag;
              continue;
            }
            throw new InlineConflict(theirs, data.etag);
          }
          if (error instanceof AgentError && error.status === 403)
            rememberDenied(collection, 'editEnabled');
          throw new InlineSaveError(errorText(error, { collection }).message);
        }
      }
      if (!updated) throw new InlineSaveError('This record is outside what your team may change.');
      show(record, field, updated.values[field] ?? value);
      await queryClient.invalidateQueries({ queryKey: ['record'] });
      void queryClient.invalidateQueries({ queryKey: ['list'] });
    },
    [client, collection, queryClient, show],
  );
  return useMemo(
    () =>
      Object.assign(save, {
        begin: async (record: AgentRecord, field: string): Promise<CellBase> => {
          const { record: now, etag } = await client.getTagged(collection, record.id);
          if (!now || !etag) return {};
          const current = now.values[field];
          return { etag, current, stale: !sameRevertValue(current, record.values[field]) };
        },
        adopt: (record: AgentRecord, field: string, theirs: unknown) => {
          show(record, field, theirs);
          void queryClient.invalidateQueries({ queryKey: ['record'] });
          void queryClient.invalidateQueries({ queryKey: ['list'] });
        },
      }),
    [save, client, collection, show, queryClient],
  );
}
