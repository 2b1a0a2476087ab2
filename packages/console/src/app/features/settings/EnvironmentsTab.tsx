/**
 * Environments of the project: list, create (the env secret shown once), rename, change type and
 * API endpoint, and issue a new env secret.
 */
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { endpointOrigin, endpointProblem, nameProblem, originToConfirm } from './form-logic';
import type { Environment, ProjectDetails } from './management-api';
import { ConfirmModal } from './ConfirmModal';
import { SecretIssued } from './SecretOnce';
import { SettingsList, SettingsTable } from './SettingsList';
import { useManagementMutation } from './use-settings';

interface EnvironmentDraft {
  name: string;
  type: Environment['type'];
  apiEndpoint: string;
}

function EnvironmentModal({
  details,
  environment,
  onClose,
}: {
  details: ProjectDetails;
  /** The environment edited; a new one when absent. */
  environment?: Environment;
  onClose(): void;
}) {
  const [draft, setDraft] = useState<EnvironmentDraft>({
    name: environment?.name ?? '',
    type: environment?.type ?? 'development',
    apiEndpoint: environment?.apiEndpoint ?? '',
  });
  const [touched, setTouched] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  /** The new agent origin the admin is asked to trust before the save. */
  const [confirmOrigin, setConfirmOrigin] = useState<string>();
  const save = useManagementMutation(
    (client, project, input: EnvironmentDraft) => {
      const body = {
        name: input.name.trim(),
        type: input.type,
        apiEndpoint: input.apiEndpoint.trim() || null,
      };
      return environment
        ? client.updateEnvironment(project, environment.name, body)
        : client.createEnvironment(project, body);
    },
    (result) => `Environment ${result.environment.name} saved.`,
  );
  const rotate = useManagementMutation(
    (client, project, name: string) =>
      client.updateEnvironment(project, name, { rotateSecret: true }),
    'A new env secret is issued: the old one no longer works.',
  );
  const submit = () =>
    save.mutate(draft, {
      onSuccess: (result) => {
        setConfirmOrigin(undefined);
        if (result.secret) setSecret(result.secret);
        else onClose();
      },
      onError: () => setConfirmOrigin(undefined),
    });
  const origin = endpointOrigin(draft.apiEndpoint);
  const problems = {
    name: nameProblem(
      draft.name,
      details.environments.map((e) => e.name).filter((n) => n !== environment?.name),
    ),
    apiEndpoint: endpointProblem(draft.apiEndpoint),
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={environment ? `Environment ${environment.name}` : 'New environment'}
      size="lg"
    >
      {secret ? (
        <SecretIssued label="Env secret" value={secret} onDone={onClose}>
          <Text size="sm">
            Give it to the agent of this environment (its <code>envSecret</code> option).
          </Text>
        </SecretIssued>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (problems.name || problems.apiEndpoint) return;
            // A new agent origin is trusted only once the admin has seen it and confirmed.
            const origin = originToConfirm(environment?.apiEndpoint, draft.apiEndpoint);
            if (origin) setConfirmOrigin(origin);
            else submit();
          }}
        >
          <Stack>
            <TextInput
              label="Name"
              value={draft.name}
              data-autofocus
              error={touched ? problems.name : undefined}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setDraft((d) => ({ ...d, name }));
              }}
            />
            <div>
              <Text size="sm" fw={500} mb={4}>
                Type
              </Text>
              <SegmentedControl
                value={draft.type}
                onChange={(type) => setDraft((d) => ({ ...d, type: type as Environment['type'] }))}
                data={[
                  { value: 'development', label: 'Development (everything allowed)' },
                  { value: 'production', label: 'Production (roles apply)' },
                ]}
              />
            </div>
            <TextInput
              label="API endpoint"
              description={
                origin ? (
                  <>
                    The console will connect to <b data-testid="endpoint-origin">{origin}</b> and
                    send this environment's sign-ins and data requests there
                  </>
                ) : (
                  "The agent's URL, where the console sends its requests"
                )
              }
              placeholder="https://agent.example.com"
              value={draft.apiEndpoint}
              error={touched ? problems.apiEndpoint : undefined}
              onChange={(e) => {
                const apiEndpoint = e.currentTarget.value;
                setDraft((d) => ({ ...d, apiEndpoint }));
              }}
            />
            <Group justify="space-between">
              {environment ? (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => setConfirmRotate(true)}
                  loading={rotate.isPending}
                >
                  Issue a new env secret
                </Button>
              ) : (
                <span />
              )}
              <Group>
                <Button variant="default" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {environment ? 'Save' : 'Create'}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
      <ConfirmModal
        opened={confirmOrigin !== undefined}
        onClose={() => setConfirmOrigin(undefined)}
        title={`Trust the agent at ${confirmOrigin ?? ''}?`}
        confirmLabel="Trust this agent"
        pending={save.isPending}
        onConfirm={submit}
      >
        Members who open {draft.name.trim() || 'this environment'} will sign in to and send their
        data requests to <b>{confirmOrigin}</b>. Confirm only if this is your agent's own address.
      </ConfirmModal>
      <ConfirmModal
        opened={confirmRotate}
        onClose={() => setConfirmRotate(false)}
        title="Issue a new env secret?"
        confirmLabel="Issue"
        onConfirm={() =>
          environment &&
          rotate.mutate(environment.name, {
            onSuccess: (result) => {
              setConfirmRotate(false);
              if (result.secret) setSecret(result.secret);
            },
          })
        }
      >
        The agent of {environment?.name} is refused until it runs with the new secret.
      </ConfirmModal>
    </Modal>
  );
}

export function EnvironmentsTab({ details }: { details: ProjectDetails }) {
  const [editing, setEditing] = useState<Environment | 'new'>();
  return (
    <SettingsList
      intro="Each environment has its agent (API endpoint) and its env secret."
      addLabel="New environment"
      addIcon={<IconPlus size={16} />}
      onAdd={() => setEditing('new')}
    >
      <SettingsTable
        label="Environments"
        minWidth={700}
        highlightOnHover
        columns={['Name', 'Type', 'API endpoint', 'Collections', 90]}
      >
        {details.environments.map((environment) => (
          <Table.Tr key={environment.id} data-environment={environment.name}>
            <Table.Td fw={500}>{environment.name}</Table.Td>
            <Table.Td>
              <Badge
                variant="light"
                color={environment.type === 'development' ? 'orange' : 'teal'}
                tt="none"
              >
                {environment.type}
              </Badge>
            </Table.Td>
            <Table.Td>
              {environment.apiEndpoint ? (
                <Anchor href={environment.apiEndpoint} target="_blank" size="sm">
                  {environment.apiEndpoint}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  Not set
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {environment.collections.length > 0
                  ? `${environment.collections.length} declared by its agent`
                  : 'No agent yet'}
              </Text>
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="light" onClick={() => setEditing(environment)}>
                Edit
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </SettingsTable>
      {editing && (
        <EnvironmentModal
          details={details}
          environment={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
    </SettingsList>
  );
}
