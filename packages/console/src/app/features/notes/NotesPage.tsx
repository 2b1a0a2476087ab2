import { Alert, Button, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { platformJson, usePlatformPaths } from '../../platform-calls';
import { NoteCard } from './NotesThread';
import type { Note, Page } from './notes-api';

/** Every note of the environment, newest first, with keyset paging. */
export function NotesPage() {
  const paths = usePlatformPaths();
  const [archived, setArchived] = useState('all');
  const notes = useInfiniteQuery({
    queryKey: ['notes', paths.environment, 'list'],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      platformJson<Page<Note>>(
        `${paths.environment}/notes?${new URLSearchParams({
          limit: '20',
          ...(pageParam ? { cursor: pageParam } : {}),
        })}`,
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  const all = notes.data?.pages.flatMap((page) => page.data) ?? [];
  const shown = all.filter((note) =>
    archived === 'all' ? true : archived === 'archived' ? !!note.archivedAt : !note.archivedAt,
  );
  return (
    <Stack p="md">
      <Group justify="space-between">
        <Title order={2}>Notes</Title>
        <Select
          aria-label="Which notes"
          w={160}
          value={archived}
          allowDeselect={false}
          onChange={(value) => setArchived(value ?? 'all')}
          data={[
            { value: 'all', label: 'All notes' },
            { value: 'open', label: 'Open' },
            { value: 'archived', label: 'Archived' },
          ]}
        />
      </Group>
      {notes.isPending && <Skeleton h={120} />}
      {notes.isError && <Alert color="red">{notes.error.message}</Alert>}
      {notes.data && shown.length === 0 && <Text c="dimmed">No note here.</Text>}
      {shown.map((note) => (
        <NoteCard key={note.id} note={note} showRecord />
      ))}
      {notes.hasNextPage && (
        <Button
          variant="default"
          loading={notes.isFetchingNextPage}
          onClick={() => notes.fetchNextPage()}
        >
          Older notes
        </Button>
      )}
    </Stack>
  );
}
