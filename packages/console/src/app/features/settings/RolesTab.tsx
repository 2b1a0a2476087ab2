/**
 * Roles: their collection rights (browse, read, edit, add, delete, export) and action rights
 * (trigger, requires approval, approve, self-approve, the first three with an optional
 * condition), saved with `PATCH …/roles/{name}`.
 */
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconFilter, IconFilterCheck } from '@tabler/icons-react';
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
  withActionRight,
  withCollectionRight,
} from './form-logic';
import type { ActionCondition, ManagedRoleRights, ProjectDetails, Role } from './management-api';
import { NamedResourceTab } from './NamedResourceTab';
import { useManagementMutation } from './use-settings';

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
  return (
    <NamedResourceTab
      noun="role"
      items={details.roles}
      memberCount={(role) => details.members.filter((m) => m.roleName === role.name).length}
      client={{
        create: (client, project, name) => client.createRole(project, { name }),
        rename: (client, project, from, to) => client.updateRole(project, from, { name: to }),
        remove: (client, project, name) => client.deleteRole(project, name),
      }}
      deleteWarning="Its members stay in the project without a role until you give them another one."
      schemaWarning={
        schema.isError && "Without the agent's schema only collection rights can be edited."
      }
      editor={(role) => (
        <RoleEditor key={role.id} role={role} schema={schema.data} details={details} />
      )}
    />
  );
}
