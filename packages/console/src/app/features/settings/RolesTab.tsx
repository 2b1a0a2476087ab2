/**
 * Roles: their collection rights (browse, read, edit, add, delete, export) and action rights
 * (trigger, requires approval, approve, self-approve, the first three with an optional
 * condition), saved with `PATCH …/roles/{name}`.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NavLink,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconFilter, IconFilterCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { countLeaves, humanize, type AgentSchema } from '../../../protocol';
import { useSchema } from '../../data';
import { ConditionModal } from './ConditionModal';
import {
  ACTION_SWITCHES,
  actionCondition,
  actionRight,
  COLLECTION_RIGHTS,
  collectionRight,
  nameProblem,
  withActionRight,
  withCollectionRight,
} from './form-logic';
import type { ActionCondition, ManagedRoleRights, ProjectDetails, Role } from './management-client';
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

export { NameModal };

function RoleEditor({
  role,
  schema,
  details,
}: {
  role: Role;
  schema: AgentSchema | undefined;
  details: ProjectDetails;
}) {
  const [rights, setRights] = useState<ManagedRoleRights>(role.rights);
  const [editing, setEditing] = useState<{
    collection: string;
    action: string;
    condition: ActionCondition;
    label: string;
  }>();
  useEffect(() => setRights(role.rights), [role]);
  const dirty = JSON.stringify(rights) !== JSON.stringify(role.rights);
  const save = useManagementMutation(
    (client, project, input: ManagedRoleRights) =>
      client.updateRole(project, role.name, { rights: input }),
    `Role ${role.name} saved; agents apply it within seconds.`,
  );
  const collections = schema
    ? schema.collections.map((c) => c.name)
    : [...new Set(details.environments.flatMap((e) => e.collections))];
  collections.sort((a, b) => humanize(a).localeCompare(humanize(b)));
  const withActions = (schema?.collections ?? [])
    .filter((c) => (c.actions ?? []).length > 0)
    .sort((a, b) => humanize(a.name).localeCompare(humanize(b.name)));
  const members = details.members.filter((m) => m.roleName === role.name).length;

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={3}>{role.name}</Title>
          <Text size="sm" c="dimmed">
            {members} member{members === 1 ? '' : 's'} hold this role. A right left checked is
            granted.
          </Text>
        </div>
        <Group>
          <Button variant="default" disabled={!dirty} onClick={() => setRights(role.rights)}>
            Discard
          </Button>
          <Button disabled={!dirty} loading={save.isPending} onClick={() => save.mutate(rights)}>
            Save role
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="sm">
        <Text fw={600} mb="xs">
          Collections
        </Text>
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={`Collection rights of ${role.name}`} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Collection</Table.Th>
                {COLLECTION_RIGHTS.map((right) => (
                  <Table.Th key={right.key} ta="center" w={80}>
                    {right.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {collections.map((collection) => (
                <Table.Tr key={collection}>
                  <Table.Td>{humanize(collection)}</Table.Td>
                  {COLLECTION_RIGHTS.map((right) => (
                    <Table.Td key={right.key}>
                      <Group justify="center">
                        <Checkbox
                          aria-label={`${right.label} ${collection}`}
                          checked={collectionRight(rights, collection, right.key)}
                          onChange={(e) =>
                            setRights(
                              withCollectionRight(
                                rights,
                                collection,
                                right.key,
                                e.currentTarget.checked,
                              ),
                            )
                          }
                        />
                      </Group>
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Paper withBorder p="sm">
        <Text fw={600}>Actions</Text>
        <Text size="xs" c="dimmed" mb="xs">
          A condition narrows a right to the selected records that match it.
        </Text>
        {withActions.length === 0 && (
          <Text size="sm" c="dimmed">
            The agent declares no action.
          </Text>
        )}
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={`Action rights of ${role.name}`} verticalSpacing={4}>
            {withActions.length > 0 && (
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Action</Table.Th>
                  {ACTION_SWITCHES.map((s) => (
                    <Table.Th key={s.key} w={150}>
                      {s.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
            )}
            <Table.Tbody>
              {withActions.flatMap((collection) =>
                (collection.actions ?? []).map((action) => (
                  <Table.Tr key={`${collection.name}:${action.name}`}>
                    <Table.Td>
                      <Text size="sm">{action.name}</Text>
                      <Text size="xs" c="dimmed">
                        {humanize(collection.name)}
                      </Text>
                    </Table.Td>
                    {ACTION_SWITCHES.map((s) => {
                      const condition = s.condition
                        ? actionCondition(rights, collection.name, action.name, s.condition)
                        : undefined;
                      const on = actionRight(rights, collection.name, action.name, s.key);
                      return (
                        <Table.Td key={s.key}>
                          <Group gap={6} wrap="nowrap">
                            <Switch
                              size="sm"
                              aria-label={`${s.label}: ${action.name} on ${collection.name}`}
                              checked={on}
                              onChange={(e) =>
                                setRights(
                                  withActionRight(rights, collection.name, action.name, {
                                    right: s.key,
                                    value: e.currentTarget.checked,
                                  }),
                                )
                              }
                            />
                            {s.condition && on && (
                              <Tooltip
                                label={
                                  condition
                                    ? `${countLeaves(condition)} condition(s): edit`
                                    : 'Add a condition'
                                }
                              >
                                <ActionIcon
                                  variant={condition ? 'light' : 'subtle'}
                                  color={condition ? 'teal' : 'gray'}
                                  size="sm"
                                  aria-label={`Condition of ${s.label}: ${action.name}`}
                                  onClick={() =>
                                    setEditing({
                                      collection: collection.name,
                                      action: action.name,
                                      condition: s.condition!,
                                      label: s.label,
                                    })
                                  }
                                >
                                  {condition ? (
                                    <IconFilterCheck size={14} />
                                  ) : (
                                    <IconFilter size={14} />
                                  )}
                                </ActionIcon>
                              </Tooltip>
                            )}
                          </Group>
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                )),
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {editing && schema && (
        <ConditionModal
          title={`${editing.label}: ${editing.action} — condition`}
          description={`The right applies only when the selected ${humanize(editing.collection).toLowerCase()} match these conditions.`}
          schema={schema}
          collection={editing.collection}
          value={actionCondition(rights, editing.collection, editing.action, editing.condition)}
          onSave={(tree) =>
            setRights(
              withActionRight(rights, editing.collection, editing.action, {
                condition: editing.condition,
                tree,
              }),
            )
          }
          onClose={() => setEditing(undefined)}
        />
      )}
    </Stack>
  );
}

export function RolesTab({ details }: { details: ProjectDetails }) {
  const schema = useSchema();
  const [selected, setSelected] = useState<string | undefined>(details.roles[0]?.name);
  const [modal, setModal] = useState<'create' | 'rename'>();
  const [deleting, setDeleting] = useState(false);
  const role = details.roles.find((r) => r.name === selected) ?? details.roles[0];
  const create = useManagementMutation(
    (client, project, name: string) => client.createRole(project, { name }),
    (r) => `Role ${r.name} created.`,
  );
  const rename = useManagementMutation(
    (client, project, input: { from: string; to: string }) =>
      client.updateRole(project, input.from, { name: input.to }),
    (r) => `Role renamed to ${r.name}.`,
  );
  const remove = useManagementMutation(
    (client, project, name: string) => client.deleteRole(project, name),
    (_, name) => `Role ${name} deleted.`,
  );
  const names = details.roles.map((r) => r.name);

  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <Stack w={220} gap={4} style={{ flexShrink: 0 }}>
        {details.roles.map((r) => (
          <NavLink
            component="button"
            type="button"
            key={r.id}
            label={r.name}
            active={r.name === role?.name}
            variant="light"
            onClick={() => setSelected(r.name)}
            rightSection={
              <Badge size="xs" variant="light" color="gray">
                {details.members.filter((m) => m.roleName === r.name).length}
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
          New role
        </Button>
        {role && (
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
        {schema.isError && (
          <Alert color="yellow" mb="sm" title="No schema">
            Without the agent&apos;s schema only collection rights can be edited.
          </Alert>
        )}
        {role ? (
          <RoleEditor key={role.id} role={role} schema={schema.data} details={details} />
        ) : (
          <Text c="dimmed">This project has no role yet.</Text>
        )}
      </div>
      {modal === 'create' && (
        <NameModal
          title="New role"
          taken={names}
          pending={create.isPending}
          onClose={() => setModal(undefined)}
          onSubmit={(name) =>
            create.mutate(name, {
              onSuccess: (r) => {
                setSelected(r.name);
                setModal(undefined);
              },
            })
          }
        />
      )}
      {modal === 'rename' && role && (
        <NameModal
          title={`Rename ${role.name}`}
          taken={names}
          initial={role.name}
          pending={rename.isPending}
          onClose={() => setModal(undefined)}
          onSubmit={(name) =>
            rename.mutate(
              { from: role.name, to: name },
              {
                onSuccess: (r) => {
                  setSelected(r.name);
                  setModal(undefined);
                },
              },
            )
          }
        />
      )}
      <Modal opened={deleting} onClose={() => setDeleting(false)} title={`Delete ${role?.name}?`}>
        <Stack>
          <Text size="sm">
            Its members stay in the project without a role until you give them another one.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                role &&
                remove.mutate(role.name, {
                  onSuccess: () => {
                    setDeleting(false);
                    setSelected(undefined);
                  },
                })
              }
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
