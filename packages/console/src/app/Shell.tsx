import {
  AppShell,
  Avatar,
  Badge,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Skeleton,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
  Alert,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDatabase, IconLogout, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { humanize } from '../protocol';
import { useAccountMenu } from './AccountMenu';
import { useCan, useDataBase, useSchema, useWorkspaceBase } from './data';
import { featureRoutes } from './routes';
import { useSession } from './session';
import { useWorkspace } from './workspace';
import { SkipLink } from './components/SkipLink';
import { SidebarCollections } from './layout/SidebarCollections';
import { InboxBell } from './features/live/InboxBell';

function Logo() {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width="26" height="26" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="13" r="11" fill="#12b886" />
        <circle cx="11" cy="11" r="5" fill="#20c997" />
        <rect x="14.5" y="19" width="3" height="11" rx="1.5" fill="#8d6e63" />
      </svg>
      <Text fw={700} size="lg">
        Canopy
      </Text>
    </Group>
  );
}

/** The signed-in layout: header (workspace, user), sidebar (collections), page. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const { session, signOut } = useSession();
  const account = useAccountMenu();
  const workspace = useWorkspace();
  const schema = useSchema();
  const can = useCan();
  const base = useDataBase();
  const { collection: current } = useParams();
  const [filter, setFilter] = useState('');
  const team = workspace.rendering.name || session.user.team;
  const root = useWorkspaceBase();
  const location = useLocation();
  const features = featureRoutes.filter(
    (route) => route.nav && (route.nav.visible?.(workspace) ?? true),
  );
  const collections = (schema.data?.collections ?? [])
    .filter((c) => !c.onlyForRelationships && can(c.name, 'browseEnabled'))
    .sort((a, b) => humanize(a.name).localeCompare(humanize(b.name)));
  const initials =
    `${session.user.firstName?.[0] ?? ''}${session.user.lastName?.[0] ?? ''}` ||
    session.user.email.charAt(0).toUpperCase();
  const displayName =
    `${session.user.firstName ?? ''} ${session.user.lastName ?? ''}`.trim() || session.user.email;

  return (
    <AppShell
      header={{ height: 56 }}
      // Below 992 px (tablets, ~820 px) the sidebar hides behind the burger.
      navbar={{ width: 240, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <SkipLink target="main-content" />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              aria-label="Toggle the collection list"
            />
            <Logo />
            <Group gap={6} visibleFrom="xs" wrap="nowrap">
              <Badge variant="light" color="gray" size="lg" tt="none">
                {workspace.project}
              </Badge>
              <Badge
                variant="light"
                color={workspace.environment.isDevelopment ? 'orange' : 'teal'}
                size="lg"
                tt="none"
              >
                {workspace.environment.name}
              </Badge>
              <Badge variant="outline" color="gray" size="lg" tt="none">
                {team}
              </Badge>
            </Group>
          </Group>
          <InboxBell />
          <Menu position="bottom-end" width={240}>
            {/* The button is named by what it shows (the initials aside), then whose account. */}
            <Menu.Target>
              <UnstyledButton>
                <Group gap={8} wrap="nowrap">
                  <Avatar color="teal" radius="xl" size={32} aria-hidden>
                    {initials}
                  </Avatar>
                  <div style={{ lineHeight: 1.1 }} className="user-name">
                    <Text size="sm" fw={500} visibleFrom="sm">
                      {displayName}
                    </Text>
                    <Text size="xs" c="dimmed" visibleFrom="sm">
                      {workspace.role?.name || session.user.role || session.user.permissionLevel}
                    </Text>
                  </div>
                  <VisuallyHidden>Account of {session.user.email}</VisuallyHidden>
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{session.user.email}</Menu.Label>
              {account.items}
              <Menu.Item leftSection={<IconLogout size={16} />} onClick={signOut}>
                Sign out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          {account.dialogs}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Collections">
        <TextInput
          placeholder="Find a collection"
          aria-label="Find a collection"
          leftSection={<IconSearch size={14} />}
          size="xs"
          mb="sm"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
        {features.length > 0 && (
          <>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4} px={4}>
              Workspace
            </Text>
            {features.map(({ path, nav }) => {
              const Icon = nav!.icon;
              const NavBadge = nav!.badge;
              const to = `${root}/${path}`;
              return (
                <NavLink
                  key={path}
                  component={Link}
                  to={to}
                  label={nav!.label}
                  leftSection={<Icon size={16} />}
                  rightSection={NavBadge && <NavBadge />}
                  active={location.pathname.startsWith(to)}
                  onClick={close}
                  variant="light"
                />
              );
            })}
          </>
        )}
        <Text
          size="xs"
          fw={600}
          c="dimmed"
          tt="uppercase"
          mb={4}
          mt={features.length ? 'sm' : 0}
          px={4}
        >
          <IconDatabase size={12} style={{ verticalAlign: -1 }} /> Data
        </Text>
        <ScrollArea style={{ flex: 1 }}>
          {schema.isPending &&
            Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={28} mb={6} radius="sm" />)}
          {schema.isError && (
            <Alert color="red" title="No schema">
              {schema.error.message}
            </Alert>
          )}
          {schema.data &&
            !collections.some((c) =>
              humanize(c.name).toLowerCase().includes(filter.trim().toLowerCase()),
            ) && (
              <Text size="sm" c="dimmed" px={4}>
                {filter ? 'No collection matches.' : 'Your role may browse no collection.'}
              </Text>
            )}
          <SidebarCollections
            collections={collections.map((c) => c.name)}
            filter={filter}
            base={base}
            current={current}
            onPick={close}
          />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
