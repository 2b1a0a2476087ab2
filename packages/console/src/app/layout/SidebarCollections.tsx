/**
 * The sidebar's collections under the team's layout (apply-layout.ts `applySidebar`): its order,
 * groups, display names, icons (sidebar-icons.tsx) and hidden collections; today's list without a
 * layout. The filter box
 * matches the names shown.
 */
import { Group, NavLink, Text } from '@mantine/core';
import { Link } from 'react-router';
import { humanize } from '../../protocol';
import { applySidebar } from './apply-layout';
import { SidebarLayoutButton } from './LayoutButton';
import { SidebarIcon } from './sidebar-icons';
import { useTeamLayout } from './team-layout';
import { collectionPath } from '../data-paths';

export function SidebarCollections({
  collections,
  filter,
  base,
  current,
  onPick,
}: {
  /** The collections the user may browse, in today's order. */
  collections: string[];
  filter: string;
  base: string;
  current: string | undefined;
  onPick(): void;
}) {
  const { layout, canEdit } = useTeamLayout();
  const wanted = filter.trim().toLowerCase();
  const link = (entry: { collection: string; displayName?: string; icon?: string }) => {
    const label = entry.displayName ?? humanize(entry.collection);
    if (wanted && !label.toLowerCase().includes(wanted)) return null;
    return (
      <NavLink
        key={entry.collection}
        component={Link}
        to={collectionPath(base, entry.collection)}
        label={label}
        leftSection={<SidebarIcon name={entry.icon} />}
        active={entry.collection === current}
        onClick={onPick}
        variant="light"
      />
    );
  };
  const entries = applySidebar(layout, collections).map((entry) => {
    if (entry.type === 'collection') return link(entry);
    const links = entry.collections.map(link).filter((item) => item !== null);
    if (links.length === 0) return null;
    return (
      <div key={`group:${entry.name}`} role="group" aria-label={entry.name}>
        <Group gap={6} mt="xs" mb={2} px={4} c="dimmed" wrap="nowrap">
          {entry.icon && <SidebarIcon name={entry.icon} size={14} />}
          <Text size="xs" fw={600} c="dimmed">
            {entry.name}
          </Text>
        </Group>
        {links}
      </div>
    );
  });
  return (
    <>
      {entries}
      {canEdit && (
        <Group justify="flex-end" px={4} mt={4}>
          <SidebarLayoutButton collections={collections} />
        </Group>
      )}
    </>
  );
}
