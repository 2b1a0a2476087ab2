/** Reloading what an action changed. Rights come from `useWorkspace().canAction`. */
import type { QueryClient } from '@tanstack/react-query';

/**
 * Reloads what an action may have changed: the collection's lists, counts and records, and the
 * lists of the collections or relations it names in `refresh.relationships` (`invalidated`).
 */
export function invalidateAfterAction(
  queryClient: QueryClient,
  collection: string,
  refresh: readonly string[],
): Promise<void> {
  const names = new Set([collection, ...refresh]);
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => {
      const [kind, , target] = queryKey as [string, string, unknown];
      if (kind === 'record' || kind === 'picker') return names.has(String(target));
      if (kind !== 'list' && kind !== 'count') return false;
      const source = target as {
        collection?: string;
        related?: { relation?: string; parent?: string };
      };
      return (
        names.has(String(source?.collection)) ||
        names.has(String(source?.related?.relation)) ||
        source?.related?.parent === collection
      );
    },
  });
}
