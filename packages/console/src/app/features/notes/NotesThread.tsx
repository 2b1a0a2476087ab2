import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  TypographyStylesProvider,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { platformJson, usePlatformPaths } from '../../platform-calls';
import { ConfirmModal } from '../settings/ConfirmModal';
import { messageHtml, safeHtml, type Note, type Page } from './notes-api';
import { formatWhen } from '../../components/when';
import { personName } from '../../components/format';
import { useLivePoll } from '../live/use-live-poll';
import { MentionTextarea } from '../live/MentionTextarea';

/** One note: its messages (sanitized HTML), reply, archive, delete. */
export function NoteCard({ note, showRecord }: { note: Note; showRecord?: boolean }) {
  const paths = usePlatformPaths();
  const queryClient = useQueryClient();
  const [reply, setReply] = useState('');
  const [confirming, setConfirming] = useState(false);
  const url = `${paths.environment}/notes/${note.id}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notes'] });
  const send = useMutation({
    mutationFn: () =>
      platformJson(`${url}/messages`, {
        method: 'POST',
        body: JSON.stringify({ content: messageHtml(reply) }),
      }),
    onSuccess: () => {
      setReply('');
      void refresh();
    },
  });
  const archive = useMutation({
    mutationFn: () =>
      platformJson(url, {
        method: 'PATCH',
        body: JSON.stringify({ archived: !note.archivedAt }),
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => platformJson(url, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const error = send.error ?? archive.error ?? remove.error;
  return (
    <Paper withBorder p="md" radius="md" aria-label={`Note ${note.title}`}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={600}>{note.title}</Text>
          {note.archivedAt && <Badge color="gray">Archived</Badge>}
          {showRecord && note.collection && (
            <Badge variant="light">
              {note.collection.name} #{note.recordId}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Button
            size="xs"
            variant="subtle"
            loading={archive.isPending}
            onClick={() => archive.mutate()}
          >
            {note.archivedAt ? 'Unarchive' : 'Archive'}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
          <ConfirmModal
            opened={confirming}
            title={`Delete the note “${note.title}”?`}
            confirmLabel="Delete"
            pending={remove.isPending}
            onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
            onClose={() => setConfirming(false)}
          >
            The note and its messages are deleted for everyone.
          </ConfirmModal>
        </Group>
      </Group>
      <Stack gap="sm">
        {note.messages.map((message, index) => (
          <div key={index} data-testid="note-message">
            <Text size="xs" c="dimmed">
              <span title={message.user.email}>{personName(message.user)}</span> ·{' '}
              {formatWhen(message.createdAt)}
            </Text>
            <TypographyStylesProvider fz="sm">
              <div dangerouslySetInnerHTML={{ __html: safeHtml(message.content) }} />
            </TypographyStylesProvider>
          </div>
        ))}
      </Stack>
      {error && (
        <Alert color="red" mt="xs">
          {error.message}
        </Alert>
      )}
      {!note.archivedAt && (
        <Group mt="sm" align="flex-end" wrap="nowrap">
          <MentionTextarea
            style={{ flex: 1 }}
            autosize
            minRows={1}
            placeholder="Reply… (**bold**, _italic_, @ to mention someone)"
            aria-label={`Reply to ${note.title}`}
            value={reply}
            onValueChange={setReply}
          />
          <Button
            size="sm"
            disabled={!reply.trim()}
            loading={send.isPending}
            onClick={() => send.mutate()}
          >
            Reply
          </Button>
        </Group>
      )}
    </Paper>
  );
}

/** The notes of one record, newest first, and a form for a new one. */
export function NotesThread({ collection, recordId }: { collection: string; recordId: string }) {
  const paths = usePlatformPaths();
  const queryClient = useQueryClient();
  const query = new URLSearchParams({ collectionName: collection, recordId, limit: '50' });
  const url = `${paths.environment}/notes?${query}`;
  const notes = useQuery({
    queryKey: ['notes', url],
    queryFn: () => platformJson<Page<Note>>(url),
    refetchInterval: useLivePoll(10_000),
  });
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const create = useMutation({
    mutationFn: () =>
      platformJson<Note>(`${paths.environment}/notes`, {
        method: 'POST',
        body: JSON.stringify({
          collectionName: collection,
          recordId,
          title: title.trim(),
          message: messageHtml(message),
        }),
      }),
    onSuccess: () => {
      setTitle('');
      setMessage('');
      void queryClient.invalidateQueries({ queryKey: ['notes'] });
    },
  });
  return (
    <Stack>
      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <TextInput
            label="New note"
            placeholder="Title"
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
          <MentionTextarea
            aria-label="Message"
            placeholder="Message… (**bold**, _italic_, links, @ to mention someone)"
            autosize
            minRows={2}
            value={message}
            onValueChange={setMessage}
          />
          {create.isError && <Alert color="red">{create.error.message}</Alert>}
          <Group justify="flex-end">
            <Button
              disabled={!title.trim() || !message.trim()}
              loading={create.isPending}
              onClick={() => create.mutate()}
            >
              Add the note
            </Button>
          </Group>
        </Stack>
      </Paper>
      {notes.isPending && <Skeleton h={80} />}
      {notes.isError && <Alert color="red">{notes.error.message}</Alert>}
      {notes.data?.data.length === 0 && <Text c="dimmed">No note on this record yet.</Text>}
      {notes.data?.data.map((note) => (
        <NoteCard key={note.id} note={note} />
      ))}
    </Stack>
  );
}
