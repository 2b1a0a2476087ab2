/**
 * A to-many relation shown as a count (the `has-many-count` display widget of the team's layout):
 * the number of related records (GET /{collection}/{id}/relationships/{field}/count, docs/
 * agent-http-protocol.md §8.9), asked only for the rows drawn, kept per record and relation by
 * react-query (the key of data.ts countQuery), linked to that tab of the record.
 */
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { Link } from 'react-router';
import { countQuery } from '../../data';
import { recordPath } from '../../data-paths';
import { useSession } from '../../session';

/** What the cell says: "…" while asked, "—" when the agent refused or cannot count. */
export function countText(state: { isPending: boolean; isError: boolean; data?: number | null }) {
  if (state.isError) return '—';
  if (state.isPending) return '…';
  return typeof state.data === 'number' ? String(state.data) : '—';
}

export const HasManyCountCell = memo(function HasManyCountCell({
  base,
  collection,
  id,
  relation,
  target,
}: {
  base: string;
  collection: string;
  id: string;
  relation: string;
  /** The related collection. */
  target: string;
}) {
  const { client, workspace } = useSession();
  const count = useQuery({
    ...countQuery(
      client,
      workspace.id,
      { collection: target, related: { parent: collection, parentId: id, relation } },
      {},
    ),
    retry: false,
  });
  const text = countText(count);
  if (typeof count.data !== 'number' || count.isError)
    return (
      <span className="cv-dim" data-has-many-count={relation}>
        {text}
      </span>
    );
  return (
    <Link
      className="cv-link"
      data-has-many-count={relation}
      to={recordPath(base, collection, id, relation)}
      onClick={(event) => event.stopPropagation()}
    >
      {text}
    </Link>
  );
});
