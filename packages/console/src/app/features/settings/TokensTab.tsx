/**
 * Application tokens of the project: create (scopes, expiry; the secret shown once with a copy
 * button and a curl example), list, revoke.
 */
import {
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { PageLoader } from '../../components/States';
import { useWorkspace } from '../../workspace';
import { EXPIRY_CHOICES, expiryAfter, tokenProblems, type TokenDraft } from './form-logic';
import {
  APPLICATION_TOKEN_SCOPES,
  type ApplicationToken,
  type ApplicationTokenScope,
} from './management-api';
import { ConfirmModal } from './ConfirmModal';
import { SecretIssued } from './SecretOnce';
import { SettingsList, SettingsTable } from './SettingsList';
import { useManagementMutation, useTokens } from './use-settings';
import { formatWhen } from '../../components/when';

const SCOPE_LABELS: Record<ApplicationTokenScope, string> = {
  'activity_logs:read': 'Read activity logs',
  'admin_logs:read': 'Read admin logs',
  'notes:read': 'Read notes',
  'notes:write': 'Write notes',
  all: 'Everything the public API offers',
};

function CreateTokenModal({ onClose }: { onClose(): void }) {
  const [draft, setDraft] = useState<TokenDraft>({ name: '', scopes: [], days: 30 });
  const [touched, setTouched] = useState(false);
  const [created, setCreated] = useState<ApplicationToken & { token: string }>();
  const create = useManagementMutation(
    (client, project, input: TokenDraft) =>
      client.createToken(project, {
        name: input.name.trim(),
        scopes: input.scopes,
        expiresAt: expiryAfter(input.days),
      }),
    (token) => `Token ${token.name} created.`,
  );
  const problems = tokenProblems(draft);
  const workspace = useWorkspace();
  const example = `${window.location.origin}/v1/project/${encodeURIComponent(
    workspace.project,
  )}/environment/${encodeURIComponent(workspace.environment.name)}/notes`;

  return (
    <Modal opened onClose={onClose} title="New application token" size="lg">
      {created ? (
        <SecretIssued label="Application token" value={created.token} onDone={onClose}>
          <Text size="sm">Use it as a bearer token on the public API, for example:</Text>
          <Code block>{`curl -H "Authorization: Bearer $TOKEN" ${example}`}</Code>
        </SecretIssued>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (Object.keys(problems).length === 0) {
              create.mutate(draft, { onSuccess: setCreated });
            }
          }}
        >
          <Stack>
            <TextInput
              label="Name"
              description="What uses it: a script, a job, a tool"
              value={draft.name}
              data-autofocus
              error={touched ? problems.name : undefined}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setDraft((d) => ({ ...d, name }));
              }}
            />
            <Checkbox.Group
              label="Scopes"
              value={draft.scopes}
              error={touched ? problems.scopes : undefined}
              onChange={(scopes) =>
                setDraft((d) => ({ ...d, scopes: scopes as ApplicationTokenScope[] }))
              }
            >
              <Stack gap={6} mt={6}>
                {APPLICATION_TOKEN_SCOPES.map((scope) => (
                  <Checkbox
                    key={scope}
                    value={scope}
                    label={
                      <>
                        {SCOPE_LABELS[scope]} <Code>{scope}</Code>
                      </>
                    }
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <Select
              label="Expires after"
              data={EXPIRY_CHOICES}
              value={String(draft.days)}
              allowDeselect={false}
              onChange={(value) => setDraft((d) => ({ ...d, days: Number(value ?? 30) }))}
              w={200}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function TokensTab() {
  const tokens = useTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApplicationToken>();
  const revoke = useManagementMutation(
    (client, project, token: ApplicationToken) => client.revokeToken(project, token.id),
    (_, token) => `Token ${token.name} revoked: the public API refuses it from now on.`,
  );

  return (
    <SettingsList
      intro="Tokens let scripts call the public API (activity logs, admin logs, notes) as you, within their scopes."
      addLabel="New token"
      addIcon={<IconKey size={16} />}
      onAdd={() => setCreating(true)}
    >
      {tokens.isPending && <PageLoader label="Loading the tokens" />}
      {tokens.isError && <Text c="red">{tokens.error.message}</Text>}
      {tokens.data && tokens.data.length === 0 && (
        <Text c="dimmed" size="sm">
          No live token.
        </Text>
      )}
      {tokens.data && tokens.data.length > 0 && (
        <SettingsTable
          label="Application tokens"
          minWidth={760}
          columns={['Name', 'Scopes', 'Created', 'Last used', 'Expires', 100]}
        >
          {tokens.data.map((token) => (
            <Table.Tr key={token.id} data-token={token.name}>
              <Table.Td fw={500}>{token.name}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {token.scopes.map((scope) => (
                    <Badge key={scope} size="sm" variant="light" tt="none">
                      {scope}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{formatWhen(token.createdAt)}</Table.Td>
              <Table.Td>{formatWhen(token.lastUsedAt)}</Table.Td>
              <Table.Td>{formatWhen(token.expiresAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => setRevoking(token)}
                  aria-label={`Revoke ${token.name}`}
                >
                  Revoke
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </SettingsTable>
      )}
      {creating && <CreateTokenModal onClose={() => setCreating(false)} />}
      <ConfirmModal
        opened={revoking !== undefined}
        onClose={() => setRevoking(undefined)}
        title={`Revoke ${revoking?.name}?`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() =>
          revoking && revoke.mutate(revoking, { onSuccess: () => setRevoking(undefined) })
        }
      >
        Whatever uses this token is refused from now on.
      </ConfirmModal>
    </SettingsList>
  );
}
