/**
 * A settings tab over named resources that members belong to (roles, teams): the list with member
 * counts, new / rename / delete, and the editor of the selected one.
 */
import { Alert, Badge, Button, Group, Modal, NavLink, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from './ConfirmModal';
import { nameProblem } from './form-logic';
import type { ManagementApi } from './management-api';
import { useManagementMutation } from './use-settings';

function NameModal({
  title,
  taken,
  initial = '',
  onSubmit,
  onClose,
  pending,
}: {
  title: string;
  taken: string[];
  initial?: string;
  pending: boolean;
  onSubmit(name: string): void;
  onClose(): void;
}) {
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const problem = nameProblem(
    name,
    taken.filter((t) => t !== initial),
  );
  return (
    <Modal opened onClose={onClose} title={title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!problem) onSubmit(name.trim());
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            value={name}
            data-autofocus
            error={touched ? problem : undefined}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** How the tab calls the management API for its resource. */
export interface NamedResourceClient<T> {
  create(client: ManagementApi, project: string, name: string): Promise<T>;
  rename(client: ManagementApi, project: string, from: string, to: string): Promise<T>;
  remove(client: ManagementApi, project: string, name: string): Promise<unknown>;
}

export function NamedResourceTab<T extends { id: number; name: string }>({
  noun,
  items,
  memberCount,
  client,
  deleteWarning,
  schemaWarning,
  editor,
}: {
  /** Lower case, singular: `role`, `team`. */
  noun: string;
  items: readonly T[];
  memberCount(item: T): number;
  client: NamedResourceClient<T>;
  /** What deleting one does to its members. */
  deleteWarning: string;
  /** Shown above the editor when the agent's schema did not load. */
  schemaWarning?: string | false;
  editor(item: T): ReactNode;
}) {
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  const [selected, setSelected] = useState<string | undefined>(items[0]?.name);
  const [modal, setModal] = useState<'create' | 'rename'>();
  const [deleting, setDeleting] = useState(false);
  const item = items.find((i) => i.name === selected) ?? items[0];
  const create = useManagementMutation(
    (api, project, name: string) => client.create(api, project, name),
    (created) => `${Noun} ${created.name} created.`,
  );
  const rename = useManagementMutation(
    (api, project, input: { from: string; to: string }) =>
      client.rename(api, project, input.from, input.to),
    (renamed) => `${Noun} renamed to ${renamed.name}.`,
  );
  const remove = useManagementMutation(
    (api, project, name: string) => client.remove(api, project, name),
    (_, name) => `${Noun} ${name} deleted.`,
  );
  const names = items.map((i) => i.name);
  const saved = {
    onSuccess: (result: T) => {
      setSelected(result.name);
      setModal(undefined);
    },
  };

  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <Stack w={220} gap={4} style={{ flexShrink: 0 }}>
        {items.map((i) => (
          <NavLink
            component="button"
            type="button"
            key={i.id}
            label={i.name}
            active={i.name === item?.name}
            variant="light"
            onClick={() => setSelected(i.name)}
            rightSection={
              <Badge size="xs" variant="light" color="gray">
                {memberCount(i)}
              </Badge>
            }
          />
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          mt="xs"
          onClick={() => setModal('create')}
        >
          New {noun}
        </Button>
        {item && (
          <Group gap="xs" mt="xs">
            <Button size="xs" variant="subtle" onClick={() => setModal('rename')}>
              Rename
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={() => setDeleting(true)}
            >
              Delete
            </Button>
          </Group>
        )}
      </Stack>
      <div style={{ flex: 1, minWidth: 0 }}>
        {schemaWarning && (
          <Alert color="yellow" mb="sm" title="No schema">
            {schemaWarning}
          </Alert>
        )}
        {item ? editor(item) : <Text c="dimmed">This project has no {noun} yet.</Text>}
      </div>
      {modal === 'create' && (
        <NameModal
          title={`New ${noun}`}
          taken={names}
          pending={create.isPending}
          onClose={() => setModal(undefined)}
          onSubmit={(name) => create.mutate(name, saved)}
        />
      )}
      {modal === 'rename' && item && (
        <NameModal
          title={`Rename ${item.name}`}
          taken={names}
          initial={item.name}
          pending={rename.isPending}
          onClose={() => setModal(undefined)}
          onSubmit={(name) => rename.mutate({ from: item.name, to: name }, saved)}
        />
      )}
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={`Delete ${item?.name}?`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          item &&
          remove.mutate(item.name, {
            onSuccess: () => {
              setDeleting(false);
              setSelected(undefined);
            },
          })
        }
      >
        {deleteWarning}
      </ConfirmModal>
    </Group>
  );
}
