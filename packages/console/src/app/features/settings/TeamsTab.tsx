/**
 * Teams and their scopes: a condition tree per collection (row-level security), edited with the
 * console's filter builder and saved with `PATCH …/teams/{name}`.
 */
import { Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  compactTree,
  countLeaves,
  humanize,
  isBranch,
  isToOne,
  operatorLabel,
  targetCollection,
  type AgentSchema,
  type ConditionTree,
} from '../../../protocol';
import { useSchema } from '../../data';
import { useSession } from '../../session';
import { ConditionModal } from './ConditionModal';
import { withScope } from './form-logic';
import type { ProjectDetails, Team } from './management-api';
import { NamedResourceTab } from './NamedResourceTab';
import { useManagementMutation } from './use-settings';

/** A one-line reading of a condition tree: `status is paid and region is EU`. */
export function describeTree(tree: ConditionTree): string {
  if (isBranch(tree)) {
    return tree.conditions
      .map((c) => (isBranch(c) ? `(${describeTree(c)})` : describeTree(c)))
      .join(` ${tree.aggregator.toLowerCase()} `);
  }
  const value =
    tree.value === undefined || tree.value === null
      ? ''
      : ` ${Array.isArray(tree.value) ? tree.value.join(', ') : String(tree.value)}`;
  return `${humanize(tree.field.replace(':', ' › '))} ${operatorLabel(tree.operator)}${value}`;
}

/**
 * The operators the agent allows on the fields a scope of `collection` may use (its own and its
 * to-one relations'), from the agent's capabilities; `undefined` while they load. When the agent
 * does not answer, the editor falls back on the schema (filterable fields, their type's operators).
 */
function useScopeOperators(schema: AgentSchema | undefined, collection: string | undefined) {
  const { client, workspace } = useSession();
  const target = schema?.collections.find((c) => c.name === collection);
  const names = target
    ? [
        target.name,
        ...target.fields
          .filter(isToOne)
          .map(targetCollection)
          .filter((name): name is string => name !== undefined),
      ]
    : [];
  const query = useQuery({
    queryKey: ['field-operators', workspace.id, names],
    queryFn: () => client.fieldOperators(names),
    enabled: names.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  return { operators: query.data, ready: names.length === 0 || !query.isPending };
}

function TeamEditor({ team, schema }: { team: Team; schema: AgentSchema | undefined }) {
  const [scopes, setScopes] = useState(team.scopes);
  const [editing, setEditing] = useState<string>();
  const [adding, setAdding] = useState<string | null>(null);
  const scopeOperators = useScopeOperators(schema, editing);
  useEffect(() => setScopes(team.scopes), [team]);
  const dirty = JSON.stringify(scopes) !== JSON.stringify(team.scopes);
  const save = useManagementMutation(
    (client, project, input: Team['scopes']) =>
      client.updateTeam(project, team.name, { scopes: input }),
    `Team ${team.name} saved; agents apply its scopes within seconds.`,
  );
  const scoped = Object.keys(scopes).sort();
  const free = (schema?.collections ?? [])
    .filter((c) => !(c.name in scopes))
    .map((c) => ({ value: c.name, label: humanize(c.name) }));

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={3}>{team.name}</Title>
          <Text size="sm" c="dimmed">
            Members of this team see only the records of a scoped collection that match its
            conditions.
          </Text>
        </div>
        <Group>
          <Button variant="default" disabled={!dirty} onClick={() => setScopes(team.scopes)}>
            Discard
          </Button>
          <Button disabled={!dirty} loading={save.isPending} onClick={() => save.mutate(scopes)}>
            Save team
          </Button>
        </Group>
      </Group>
      {scoped.length === 0 && (
        <Text size="sm" c="dimmed">
          No scope: the team sees every record its role may browse.
        </Text>
      )}
      {scoped.map((collection) => {
        const tree = compactTree(scopes[collection] as ConditionTree);
        return (
          <Paper key={collection} withBorder p="sm" data-scope={collection}>
            <Group justify="space-between" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Text fw={600}>{humanize(collection)}</Text>
                  {tree && (
                    <Badge size="sm" variant="light">
                      {countLeaves(tree)} condition{countLeaves(tree) === 1 ? '' : 's'}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed" truncate>
                  {tree ? describeTree(tree) : 'No condition'}
                </Text>
              </div>
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="light"
                  disabled={!schema}
                  onClick={() => setEditing(collection)}
                >
                  Edit scope
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  aria-label={`Remove the scope on ${collection}`}
                  onClick={() => setScopes(withScope(scopes, collection, undefined))}
                >
                  <IconTrash size={14} />
                </Button>
              </Group>
            </Group>
          </Paper>
        );
      })}
      {schema && (
        <Group align="flex-end">
          <Select
            label="Scope another collection"
            placeholder="Choose a collection"
            data={free}
            value={adding}
            searchable
            onChange={setAdding}
            w={280}
          />
          <Button
            variant="light"
            disabled={!adding}
            onClick={() => {
              setEditing(adding ?? undefined);
              setAdding(null);
            }}
          >
            Add a scope
          </Button>
        </Group>
      )}
      {editing && schema && scopeOperators.ready && (
        <ConditionModal
          title={`Scope of ${team.name} on ${humanize(editing)}`}
          description={`Members of ${team.name} see only the ${humanize(editing).toLowerCase()} that match these conditions.`}
          schema={schema}
          collection={editing}
          operators={scopeOperators.operators}
          value={scopes[editing] as ConditionTree | undefined}
          onSave={(tree) => setScopes(withScope(scopes, editing, tree))}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Stack>
  );
}

export function TeamsTab({ details }: { details: ProjectDetails }) {
  const schema = useSchema();
  return (
    <NamedResourceTab
      noun="team"
      items={details.teams}
      memberCount={(team) => details.members.filter((m) => m.teamNames.includes(team.name)).length}
      client={{
        create: (client, project, name) => client.createTeam(project, { name }),
        rename: (client, project, from, to) => client.updateTeam(project, from, { name: to }),
        remove: (client, project, name) => client.deleteTeam(project, name),
      }}
      deleteWarning="Its members leave the team. The platform keeps a team that activity logs refer to."
      schemaWarning={
        schema.isError &&
        "Scopes are edited on the fields of the agent's schema, which did not load."
      }
      editor={(team) => <TeamEditor key={team.id} team={team} schema={schema.data} />}
    />
  );
}
