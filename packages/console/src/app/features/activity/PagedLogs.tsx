import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What {@link PagedLogs} reads of an infinite query over cursor pages (`{ data: T[] }`). */
export interface PagedQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data?: { pages: { data: T[] }[] };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

/**
 * A list of logs read page by page: a placeholder while the first page loads, the error, the
 * `empty` line, the rows as `children` draws them, and a button for the older ones.
 */
export function PagedLogs<T>({
  query,
  empty,
  older,
  placeholderHeight,
  children,
}: {
  query: PagedQuery<T>;
  empty: string;
  /** The label of the button that loads the next page. */
  older: string;
  placeholderHeight: number;
  children(rows: T[]): ReactNode;
}) {
  const rows = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack>
      {query.isPending && <Skeleton h={placeholderHeight} />}
      {query.isError && <Alert color="red">{query.error?.message}</Alert>}
      {query.data && rows.length === 0 && (
        <Text c="dimmed" data-testid="logs-empty">
          {empty}
        </Text>
      )}
      {rows.length > 0 && children(rows)}
      {query.hasNextPage && (
        <Button
          variant="default"
          loading={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
        >
          {older}
        </Button>
      )}
    </Stack>
  );
}
