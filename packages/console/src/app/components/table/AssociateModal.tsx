/** A related tab's "Associate": pick a record of the collection and link it to the parent. */
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { humanize, type AgentClient, type SchemaCollection } from '../../../protocol';
import type { ListSource } from '../../data';
import { RecordPicker } from '../RecordPicker';

export function AssociateModal({
  opened,
  onClose,
  client,
  collection,
  related,
  onDone,
}: {
  opened: boolean;
  onClose(): void;
  client: AgentClient;
  collection: SchemaCollection;
  related: NonNullable<ListSource['related']>;
  onDone(): Promise<void>;
}) {
  const name = humanize(collection.name).toLowerCase();
  return (
    <Modal opened={opened} onClose={onClose} title={`Associate ${name}`} centered>
      <RecordPicker
        collection={collection}
        label={`Find a record of ${name}`}
        value={null}
        onChange={async (picked) => {
          if (!picked) return;
          try {
            await client.associate(related.parent, related.parentId, related.relation, {
              type: collection.name,
              id: picked.id,
            });
            notifications.show({ color: 'teal', message: 'Record associated.' });
            onClose();
            await onDone();
          } catch (error) {
            notifications.show({
              color: 'red',
              title: 'Not associated',
              message: (error as Error).message,
            });
          }
        }}
      />
    </Modal>
  );
}
