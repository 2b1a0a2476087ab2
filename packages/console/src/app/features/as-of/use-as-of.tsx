/**
 * A collection's list "as of" a time (agent protocol §13.1, `POST /_audit-trail/{c}/states`):
 * while the address holds `asOf=`, the page keeps today's rows and order, asks the agent for
 * their states then in one call, and shows them through as-of-view.tsx, read-only; a banner says
 * what is shown and leads back to now. Off when the agent records no history
 * (`canUseAuditTrail`), as with the reference agent. The picker loads on first use.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { AgentRecord } from '../../../protocol';
import { readAsOf, writeAsOf } from '../../../protocol/as-of';
import type { CellColumn } from '../../components/table/cell-columns';
import { useSession } from '../../session';
import { useAgentCapabilities } from '../../use-agent-capabilities';
import { asOfColumns, AsOfBanner, asOfLabel } from './as-of-view';
import { AsOfControl } from './AsOfControl';

export interface AsOfTable {
  /** A past moment is shown (editing, selection and bulk actions are off). */
  active: boolean;
  /** The columns to render: `columns` as given, or read-only with the past shown. */
  columns: CellColumn[];
  /** The toolbar's control; `undefined` when the agent has no history. Stable. */
  control: ReactNode;
  /** What is shown, above the table, while a past moment is. */
  banner: ReactNode;
}

export function useAsOf({
  collection,
  name,
  prefix,
  enabled,
  rows,
  columns,
}: {
  collection: string;
  /** The collection's name in a sentence (`orders`). */
  name: string;
  prefix: string;
  /** Where the table offers it (a collection's own list). */
  enabled: boolean;
  rows: readonly AgentRecord[];
  columns: CellColumn[];
}): AsOfTable {
  const { client, workspace } = useSession();
  const [params, setParams] = useSearchParams();
  const audited = useAgentCapabilities().canUseAuditTrail === true;
  const available = enabled && audited;
  const at = available ? readAsOf(params, prefix) : undefined;
  const ids = rows.map((row) => row.id);
  const states = useQuery({
    queryKey: ['as-of', workspace.id, collection, at, ids.join('\n')],
    queryFn: () => client.recordStates(collection, ids, at!),
    enabled: at !== undefined && ids.length > 0,
    retry: false,
  });
  const label = at ? asOfLabel(at) : '';
  const shown = useMemo(() => {
    if (!at) return columns;
    const byId = new Map((states.data ?? []).map((state) => [state.id, state]));
    return asOfColumns(columns, byId, label);
  }, [at, columns, states.data, label]);
  const control = useMemo(
    () => (available ? <AsOfControl prefix={prefix} /> : undefined),
    [available, prefix],
  );
  const banner = at ? (
    <AsOfBanner
      name={name}
      label={label}
      states={states.data}
      fetching={states.isFetching}
      error={states.error}
      onNow={() => setParams(writeAsOf(params, undefined, prefix))}
    />
  ) : null;
  return { active: at !== undefined, columns: shown, control, banner };
}
