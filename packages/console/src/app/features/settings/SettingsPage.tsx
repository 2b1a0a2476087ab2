/**
 * Settings for the project's admins (`/:project/:environment/settings/:tab`): members, roles,
 * teams, application tokens and environments, over the management API of admin-api-server.
 */
import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconKey,
  IconServer,
  IconShieldLock,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { PageLoader } from '../../components/States';
import { useWorkspace } from '../../workspace';
import { EnvironmentsTab } from './EnvironmentsTab';
import { PlatformError } from '../../../protocol';
import { MembersTab } from './MembersTab';
import { RolesTab } from './RolesTab';
import { TeamsTab } from './TeamsTab';
import { TokensTab } from './TokensTab';
import { useProjectDetails } from './use-settings';

export const SETTINGS_TABS = [
  { value: 'members', label: 'Members', icon: IconUsers },
  { value: 'roles', label: 'Roles', icon: IconShieldLock },
  { value: 'teams', label: 'Teams', icon: IconUsersGroup },
  { value: 'tokens', label: 'Application tokens', icon: IconKey },
  { value: 'environments', label: 'Environments', icon: IconServer },
] as const;

/** Whether the signed-in user may open the settings (the server checks again on every call). */
export function useIsProjectAdmin(): boolean {
  return useWorkspace().permissionLevel === 'admin';
}

export function SettingsPage() {
  const { tab = 'members', project, environment } = useParams();
  const navigate = useNavigate();
  const admin = useIsProjectAdmin();
  const details = useProjectDetails();
  const workspace = useWorkspace();

  if (!admin) {
    return (
      <Alert color="yellow" title="Settings are for project admins">
        Ask an admin of {workspace.project} to change members, roles, teams, tokens or environments.
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Settings</Title>
        <Text c="dimmed" size="sm">
          Project {workspace.project}: changes reach the running agents within seconds.
        </Text>
      </div>
      <Tabs
        value={tab}
        onChange={(next) =>
          navigate(
            `/${encodeURIComponent(project ?? workspace.project)}/${encodeURIComponent(
              environment ?? workspace.environment.name,
            )}/settings/${next ?? 'members'}`,
          )
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {SETTINGS_TABS.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {details.isPending && <PageLoader label="Loading the settings" />}
        {details.isError && (
          <Alert
            color="red"
            title={
              details.error instanceof PlatformError && details.error.status === 403
                ? 'Only admins of this project can manage it'
                : 'The settings could not be loaded'
            }
          >
            {details.error.message}
          </Alert>
        )}
        {details.data && (
          <>
            <Tabs.Panel value="members">
              <MembersTab details={details.data} />
            </Tabs.Panel>
            <Tabs.Panel value="roles">
              <RolesTab details={details.data} />
            </Tabs.Panel>
            <Tabs.Panel value="teams">
              <TeamsTab details={details.data} />
            </Tabs.Panel>
            <Tabs.Panel value="tokens">
              <TokensTab />
            </Tabs.Panel>
            <Tabs.Panel value="environments">
              <EnvironmentsTab details={details.data} />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </Stack>
  );
}
