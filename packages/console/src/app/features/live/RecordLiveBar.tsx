/**
 * On a record's page: who else has it open (RecordPresence), and, when someone else
 * changes or deletes it, "changed by <name> just now" with what changed (field: before → after)
 * and a button that reloads it. The page is not reloaded by itself: the reader keeps what they
 * were reading until they choose.
 */
import type { AgentRecord, RecordChangedEvent } from '@canopy/platform-protocol';
import { Alert, Button, Group, List, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { humanize, isToOne, type SchemaCollection } from '../../../protocol';
import { Value } from '../../components/Value';
import { useSession } from '../../session';
import { useLive, useLiveEvents } from './LiveProvider';
import { recordDiff, type FieldChange } from './record-diff';
import { RecordPresence } from './RecordPresence';
import { useMembers } from './use-members';

interface Notice {
  by: number[];
  deleted: boolean;
  changes: FieldChange[];
}

/** A record's values with its to-one relations as the linked ids. */
function flatValues(collection: SchemaCollection, record: AgentRecord): Record<string, unknown> {
  const values: Record<string, unknown> = { ...record.values };
  for (const field of collection.fields) {
    if (isToOne(field)) values[field.field] = record.toOne[field.field]?.id ?? null;
  }
  return values;
}

export function RecordLiveBar({
  collection,
  record,
}: {
  collection: SchemaCollection;
  record: AgentRecord;
}) {
  const { me } = useLive();
  const { client, workspace } = useSession();
  const queryClient = useQueryClient();
  const members = useMembers();
  const [notice, setNotice] = useState<Notice>();
  // A reloaded record is the new starting point.
  useEffect(() => setNotice(undefined), [record]);

  useLiveEvents((event) => {
    if (event.type !== 'record-changed') return;
    const change = event.data as RecordChangedEvent;
    if (change.collection !== collection.name || change.recordId !== record.id) return;
    if (change.userId === me) return;
    const by = (current?: Notice) =>
      current?.by.includes(change.userId) ? current.by : [...(current?.by ?? []), change.userId];
    if (change.operation === 'delete') {
      setNotice((current) => ({ by: by(current), deleted: true, changes: [] }));
      return;
    }
    client
      .get(collection.name, record.id)
      .then((fresh) => {
        if (!fresh) {
          setNotice((current) => ({ by: by(current), deleted: true, changes: [] }));
          return;
        }
        const fields = collection.fields.map((field) => field.field);
        const changes = recordDiff(
          fields,
          flatValues(collection, record),
          flatValues(collection, fresh),
        );
        setNotice((current) => ({ by: by(current), deleted: false, changes }));
      })
      .catch(() => setNotice((current) => ({ by: by(current), deleted: false, changes: [] })));
  });

  const name = (id: number) => members.get(id)?.name || members.get(id)?.email || 'Another member';
  const reload = () =>
    void queryClient.invalidateQueries({
      queryKey: ['record', workspace.id, collection.name, record.id],
    });
  const fieldOf = (field: string) => collection.fields.find((f) => f.field === field)!;

  return (
    <>
      <RecordPresence collection={collection.name} recordId={record.id} />
      {notice && (
        <Alert
          color={notice.deleted ? 'red' : 'blue'}
          data-testid="record-changed-notice"
          title={`${notice.deleted ? 'Deleted' : 'Changed'} by ${notice.by.map(name).join(', ')} just now`}
        >
          {notice.changes.length > 0 && (
            <List size="sm" mb="xs">
              {notice.changes.map((change) => (
                <List.Item key={change.field} data-testid="record-change">
                  <Group gap={6} wrap="wrap">
                    <Text span size="sm" fw={600}>
                      {humanize(change.field)}:
                    </Text>
                    <Value field={fieldOf(change.field)} value={change.before} compact />
                    <Text span size="sm">
                      →
                    </Text>
                    <Value field={fieldOf(change.field)} value={change.after} compact />
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
          {!notice.deleted && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              onClick={reload}
            >
              Reload the record
            </Button>
          )}
        </Alert>
      )}
    </>
  );
}
