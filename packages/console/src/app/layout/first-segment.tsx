/**
 * The segment a collection's list opens on (`TableLayout.firstSegment`, public API §7): a segment
 * of the agent's schema or one of the team's Console segments. It applies when the address names
 * no segment (nor a saved view); a user's choice in the address — another segment, or none,
 * written `segment=` — wins. A name that is no longer a segment is ignored, without an error:
 * the agent is never asked for it. For a team segment, the list waits for the team's segments
 * (a moment) rather than loading the whole collection first.
 */
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { VIEW_PARAM, type SchemaCollection } from '../../protocol';
import { PageLoader } from '../components/States';
import { useTeamSegments } from '../components/table/use-saved-views';
import { collectionLayout } from './apply-layout';
import { useTeamLayout } from './team-layout';

/** The first segment to apply, once known to exist (`pending` while the team's are read). */
export function useFirstSegment(collection: SchemaCollection): {
  segment: string | undefined;
  pending: boolean;
} {
  const { layout } = useTeamLayout();
  const [address] = useSearchParams();
  const name = collectionLayout(layout, collection.name)?.table?.firstSegment || undefined;
  const chosen = address.has('segment') || address.has(VIEW_PARAM);
  const inSchema = (collection.segments ?? []).some((segment) => segment.name === name);
  const team = useTeamSegments(collection.name, name !== undefined && !inSchema);
  if (!name) return { segment: undefined, pending: false };
  if (inSchema) return { segment: name, pending: false };
  // An address that names its segment (or a saved view) does not wait for the team's.
  if (team.isPending && team.fetchStatus !== 'idle')
    return { segment: undefined, pending: !chosen };
  return {
    segment: (team.data ?? []).some((segment) => segment.name === name) ? name : undefined,
    pending: false,
  };
}

/** Renders the list with its first segment, once it is known. */
export function WithFirstSegment({
  collection,
  children,
}: {
  collection: SchemaCollection;
  children(firstSegment: string | undefined): ReactNode;
}) {
  const first = useFirstSegment(collection);
  if (first.pending) return <PageLoader label="Loading" />;
  return <>{children(first.segment)}</>;
}
