/** Members: list, invite (one-time link), change level, role and teams, remove. */
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconLockOpen, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useSession } from '../../session';
import { inviteBody, inviteProblems, type InviteDraft } from './form-logic';
import {
  PERMISSION_LEVELS,
  type Invitation,
  type Member,
  type PermissionLevel,
  type ProjectDetails,
} from './management-api';
import { ConfirmModal } from './ConfirmModal';
import { SecretIssued } from './SecretOnce';
import { SettingsList, SettingsTable } from './SettingsList';
import { useManagementMutation } from './use-settings';
import { formatWhen } from '../../components/when';

const LEVELS = PERMISSION_LEVELS.map((level) => ({
  value: level,
  label: level.charAt(0).toUpperCase() + level.slice(1),
}));

const fullName = (member: Member) =>
  `${member.firstName} ${member.lastName}`.trim() || member.email.split('@')[0];

function InviteModal({ details, onClose }: { details: ProjectDetails; onClose(): void }) {
  const [draft, setDraft] = useState<InviteDraft>({
    email: '',
    firstName: '',
    lastName: '',
    permissionLevel: 'user',
    roleName: null,
    teamNames: [],
  });
  const [touched, setTouched] = useState(false);
  const [invitation, setInvitation] = useState<{ email: string; link?: Invitation }>();
  const invite = useManagementMutation(
    (client, project, input: InviteDraft) => client.addMember(project, inviteBody(input)),
    (member) => `${member.email} is now a member.`,
  );
  const problems = inviteProblems(
    draft,
    details.members.map((m) => m.email),
  );
  const set = (change: Partial<InviteDraft>) => setDraft((current) => ({ ...current, ...change }));
  const shown = (key: keyof InviteDraft) => (touched ? problems[key] : undefined);

  return (
    <Modal opened onClose={onClose} title="Invite a member" size="lg">
      {invitation ? (
        invitation.link ? (
          <SecretIssued label="Invitation link" value={invitation.link.url} onDone={onClose}>
            <Text size="sm">
              Send it to {invitation.email}: it lets them set a password once, until{' '}
              {formatWhen(invitation.link.expiresAt)}.
            </Text>
          </SecretIssued>
        ) : (
          <Stack>
            <Text size="sm">
              {invitation.email} already has an account: they sign in with their password.
            </Text>
            <Group justify="flex-end">
              <Button onClick={onClose}>Done</Button>
            </Group>
          </Stack>
        )
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (Object.keys(problems).length > 0) return;
            invite.mutate(draft, {
              onSuccess: (member) =>
                setInvitation({ email: member.email, link: member.invitation }),
            });
          }}
        >
          <Stack>
            <TextInput
              label="Email"
              required
              value={draft.email}
              error={shown('email')}
              onChange={(e) => set({ email: e.currentTarget.value })}
              data-autofocus
            />
            <Group grow>
              <TextInput
                label="First name"
                value={draft.firstName}
                onChange={(e) => set({ firstName: e.currentTarget.value })}
              />
              <TextInput
                label="Last name"
                value={draft.lastName}
                onChange={(e) => set({ lastName: e.currentTarget.value })}
              />
            </Group>
            <Group grow align="flex-start">
              <Select
                label="Permission level"
                data={LEVELS}
                value={draft.permissionLevel}
                allowDeselect={false}
                onChange={(value) => set({ permissionLevel: (value ?? 'user') as PermissionLevel })}
              />
              <Select
                label="Role"
                placeholder="No role"
                clearable
                data={details.roles.map((r) => r.name)}
                value={draft.roleName}
                error={shown('roleName')}
                onChange={(value) => set({ roleName: value })}
              />
            </Group>
            <MultiSelect
              label="Teams"
              placeholder={draft.teamNames.length ? undefined : 'The default team'}
              data={details.teams.map((t) => t.name)}
              value={draft.teamNames}
              onChange={(teamNames) => set({ teamNames })}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                Invite
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function MembersTab({ details }: { details: ProjectDetails }) {
  const { session } = useSession();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member>();
  const update = useManagementMutation(
    (
      client,
      project,
      input: { member: Member; changes: Parameters<typeof client.updateMember>[2] },
    ) => client.updateMember(project, input.member.id, input.changes),
    (member) => `${member.email} updated.`,
  );
  const remove = useManagementMutation(
    (client, project, member: Member) => client.removeMember(project, member.id),
    (_, member) => `${member.email} is no longer a member.`,
  );
  const unlock = useManagementMutation(
    (client, project, member: Member) => client.unlockMember(project, member.id),
    (_, member) => `${member.email} can sign in again.`,
  );

  return (
    <SettingsList
      intro={
        <>
          {details.members.length} member{details.members.length === 1 ? '' : 's'}. A change of role
          or team applies to the member&apos;s next request.
        </>
      }
      addLabel="Invite a member"
      addIcon={<IconUserPlus size={16} />}
      onAdd={() => setInviting(true)}
    >
      <SettingsTable
        label="Members"
        minWidth={800}
        highlightOnHover
        columns={[
          'Member',
          { title: 'Permission level', width: 150 },
          { title: 'Role', width: 180 },
          'Teams',
          50,
        ]}
      >
        {details.members.map((member) => {
          const self = member.email === session.user.email;
          return (
            <Table.Tr key={member.id} data-member={member.email}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {fullName(member)}
                </Text>
                <Text size="xs" c="dimmed">
                  {member.email}
                </Text>
                {member.lockedUntil && (
                  <Group gap={6} mt={4} wrap="nowrap">
                    <Tooltip label="Too many failed sign-ins: signing in is refused until then">
                      <Badge color="red" variant="light" size="sm" tt="none">
                        Locked until {formatWhen(member.lockedUntil)}
                      </Badge>
                    </Tooltip>
                    <Button
                      size="compact-xs"
                      variant="light"
                      leftSection={<IconLockOpen size={12} />}
                      loading={unlock.isPending && unlock.variables?.id === member.id}
                      aria-label={`Unlock ${member.email}`}
                      onClick={() => unlock.mutate(member)}
                    >
                      Unlock
                    </Button>
                  </Group>
                )}
              </Table.Td>
              <Table.Td>
                <Select
                  size="xs"
                  aria-label={`Permission level of ${member.email}`}
                  data={LEVELS}
                  value={member.permissionLevel}
                  allowDeselect={false}
                  disabled={self}
                  onChange={(value) =>
                    value &&
                    update.mutate({
                      member,
                      changes: { permissionLevel: value as PermissionLevel },
                    })
                  }
                />
              </Table.Td>
              <Table.Td>
                <Select
                  size="xs"
                  aria-label={`Role of ${member.email}`}
                  placeholder="No role"
                  clearable
                  data={details.roles.map((r) => r.name)}
                  value={member.roleName}
                  onChange={(value) =>
                    update.mutate({ member, changes: { roleName: value ?? null } })
                  }
                />
              </Table.Td>
              <Table.Td>
                <MultiSelect
                  size="xs"
                  aria-label={`Teams of ${member.email}`}
                  data={details.teams.map((t) => t.name)}
                  value={member.teamNames}
                  onChange={(teamNames) =>
                    teamNames.length > 0 && update.mutate({ member, changes: { teamNames } })
                  }
                />
              </Table.Td>
              <Table.Td>
                <Tooltip label={self ? 'You cannot remove yourself' : 'Remove from the project'}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    disabled={self}
                    aria-label={`Remove ${member.email}`}
                    onClick={() => setRemoving(member)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </SettingsTable>
      {inviting && <InviteModal details={details} onClose={() => setInviting(false)} />}
      <ConfirmModal
        opened={removing !== undefined}
        onClose={() => setRemoving(undefined)}
        title="Remove this member?"
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() =>
          removing && remove.mutate(removing, { onSuccess: () => setRemoving(undefined) })
        }
      >
        {removing?.email} loses access to {details.name} at once; their account stays.
      </ConfirmModal>
    </SettingsList>
  );
}
