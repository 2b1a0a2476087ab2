/**
 * The toolbar's "Views" control (issue 32): the signed-in team's Console segments and the saved
 * views (the user's own and those shared with their teams), each with its record count (asked
 * when the menu opens, kept a minute); opening one sets the list's state and the address
 * (`view=<id>`, saved-views.ts). Saving the list as a view, renaming, updating and deleting it
 * (its owner or an admin), a team's default view and a segment from the filter (editors).
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBookmarks, IconChevronDown } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SavedView } from '@canopy/platform-protocol';
import {
  compactTree,
  isLayoutEditor,
  layoutErrorText,
  mayChangeView,
  savedViewBody,
  savedViewParams,
  segmentParams,
  selectedViewId,
  showsSavedView,
  teamDefaultView,
  treeFromWire,
  VIEW_PARAM,
  type ConditionTree,
  type SchemaCollection,
  type ViewState,
} from '../../../protocol';
import { useSession } from '../../session';
import { useWorkspace } from '../../workspace';
import { hasView } from '../list-state';
import type { useColumnPrefs } from './use-column-prefs';
import {
  useSavedViewCalls,
  useSavedViews,
  useShareTeams,
  useTeamSegments,
  useViewCount,
} from './use-saved-views';
import { formatNumber } from '../format';

type Dialog =
  | { kind: 'save' }
  | { kind: 'rename'; view: SavedView }
  | { kind: 'delete'; view: SavedView }
  | { kind: 'segment' };

function CountBadge({
  collection,
  filters,
  search,
  segment,
}: {
  collection: SchemaCollection;
  filters?: ConditionTree;
  search?: string;
  segment?: string;
}) {
  const count = useViewCount(
    collection.name,
    { filters, search: search ?? '', segment },
    (collection.segments ?? []).map((schemaSegment) => schemaSegment.name),
  );
  const text = count.isPending ? '…' : count.isError ? '?' : (count.data ?? '—');
  return (
    <Badge
      variant="light"
      color="gray"
      size="sm"
      data-testid="view-count"
      aria-label={`${text} records`}
    >
      {typeof text === 'number' ? formatNumber(text) : text}
    </Badge>
  );
}

export function ViewsMenu({
  collection,
  view,
  params,
  prefs,
}: {
  collection: SchemaCollection;
  view: ViewState;
  params: URLSearchParams;
  prefs: ReturnType<typeof useColumnPrefs>;
}) {
  const workspace = useWorkspace();
  const { session } = useSession();
  const [address, setParams] = useSearchParams();
  const views = useSavedViews(collection.name);
  const segments = useTeamSegments(collection.name);
  const calls = useSavedViewCalls(collection.name);
  const shareTeams = useShareTeams();
  const [dialog, setDialog] = useState<Dialog>();
  const team = workspace.rendering.name;
  const editor = isLayoutEditor(workspace.permissionLevel);
  const list = views.data ?? [];
  const selectedId = selectedViewId(params);
  const selected = list.find((saved) => saved.id === selectedId);
  const modified = selected ? !showsSavedView(view, selected) : false;

  const open = (saved: SavedView, replace = false) => {
    setParams(savedViewParams(params, saved), { replace });
    if (saved.columns) {
      const known = new Set(prefs.available);
      const columns = saved.columns.filter((column) => known.has(column));
      if (columns.length > 0) prefs.set(columns);
    }
  };

  // A bare address (the sidebar's link) opens the team's default view, once the views are there.
  const [bare] = useState(() => !hasView(address) && selectedViewId(address) === undefined);
  const defaulted = useRef(false);
  useEffect(() => {
    if (!bare || defaulted.current || !views.data) return;
    defaulted.current = true;
    const fallback = teamDefaultView(views.data, team, collection.name);
    if (fallback) open(fallback, true);
  }, [views.data]);

  const act = (promise: Promise<unknown>, done: string, name = '') =>
    promise.then(
      () => notifications.show({ color: 'teal', message: done }),
      (error: unknown) =>
        notifications.show({ color: 'red', message: layoutErrorText(error, 'view', name) }),
    );

  const shareLabel = (saved: SavedView) =>
    saved.teamName ? `shared with ${saved.teamName}` : 'personal';

  return (
    <>
      <Menu position="bottom-start" width={320} withinPortal>
        <Menu.Target>
          <Button
            variant={selected ? 'light' : 'default'}
            leftSection={<IconBookmarks size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            aria-label={
              selected ? `Views: ${selected.name}${modified ? ' (changed)' : ''}` : 'Views'
            }
            maw={240}
          >
            <Text span size="sm" truncate>
              {selected ? `${selected.name}${modified ? ' •' : ''}` : 'Views'}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="views-menu">
          <Menu.Label>Segments of {team}</Menu.Label>
          {(segments.data ?? []).length === 0 && (
            <Menu.Item disabled>{segments.isPending ? 'Loading…' : 'None yet'}</Menu.Item>
          )}
          {(segments.data ?? []).map((segment) => (
            <Menu.Item
              key={`segment-${segment.id}`}
              aria-label={`Segment ${segment.name}`}
              onClick={() => setParams(segmentParams(params, segment.name))}
              rightSection={<CountBadge collection={collection} segment={segment.name} />}
            >
              {segment.name}
            </Menu.Item>
          ))}
          <Menu.Label>Saved views</Menu.Label>
          {list.length === 0 && (
            <Menu.Item disabled>{views.isPending ? 'Loading…' : 'None yet'}</Menu.Item>
          )}
          {list.map((saved) => (
            <Menu.Item
              key={`view-${saved.id}`}
              aria-label={`View ${saved.name}`}
              onClick={() => open(saved)}
              rightSection={
                <CountBadge
                  collection={collection}
                  filters={treeFromWire(saved.filter)}
                  search={saved.search ?? undefined}
                  segment={saved.segment ?? undefined}
                />
              }
            >
              <Text size="sm" fw={saved.id === selectedId ? 600 : undefined}>
                {saved.name}
              </Text>
              <Text size="xs" c="dimmed">
                {shareLabel(saved)}
                {saved.defaultForTeams.length > 0
                  ? ` · default of ${saved.defaultForTeams.join(', ')}`
                  : ''}
              </Text>
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setDialog({ kind: 'save' })}>Save view…</Menu.Item>
          {selected && mayChangeView(selected, session.user, workspace.permissionLevel) && (
            <>
              {modified && (
                <Menu.Item
                  onClick={() =>
                    void act(
                      calls.update.mutateAsync({
                        id: selected.id,
                        body: savedViewBody(view, prefs.visible, {
                          name: selected.name,
                          collection: collection.name,
                          teamName: selected.teamName,
                        }),
                      }),
                      `View “${selected.name}” updated.`,
                      selected.name,
                    )
                  }
                >
                  Update “{selected.name}” to this list
                </Menu.Item>
              )}
              <Menu.Item onClick={() => setDialog({ kind: 'rename', view: selected })}>
                Rename or share “{selected.name}”…
              </Menu.Item>
              <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', view: selected })}>
                Delete “{selected.name}”…
              </Menu.Item>
            </>
          )}
          {selected && editor && selected.teamName && (
            <Menu.Item
              onClick={() => {
                const isDefault = selected.defaultForTeams.includes(selected.teamName!);
                void act(
                  calls.setDefault.mutateAsync({
                    teamName: selected.teamName!,
                    viewId: isDefault ? null : selected.id,
                  }),
                  isDefault
                    ? `${selected.teamName} no longer opens a default view.`
                    : `${selected.teamName} now opens “${selected.name}” first.`,
                );
              }}
            >
              {selected.defaultForTeams.includes(selected.teamName)
                ? `Clear default of ${selected.teamName}`
                : `Make default of ${selected.teamName}`}
            </Menu.Item>
          )}
          {editor && compactTree(view.filters) && (
            <Menu.Item onClick={() => setDialog({ kind: 'segment' })}>
              Create segment from this filter…
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {dialog && (
        <ViewDialog
          dialog={dialog}
          teams={shareTeams}
          team={team}
          onClose={() => setDialog(undefined)}
          onSubmit={async ({ name, teamName }) => {
            if (dialog.kind === 'save') {
              const created = await calls.create.mutateAsync(
                savedViewBody(view, prefs.visible, {
                  name,
                  collection: collection.name,
                  teamName,
                }),
              );
              setParams(savedViewParams(params, created), { replace: true });
              notifications.show({ color: 'teal', message: `View “${created.name}” saved.` });
            } else if (dialog.kind === 'rename') {
              await calls.update.mutateAsync({ id: dialog.view.id, body: { name, teamName } });
              notifications.show({ color: 'teal', message: `View “${name}” saved.` });
            } else if (dialog.kind === 'delete') {
              await calls.remove.mutateAsync(dialog.view.id);
              const next = new URLSearchParams(params);
              next.delete(VIEW_PARAM);
              setParams(next, { replace: true });
              notifications.show({ color: 'teal', message: `View “${dialog.view.name}” deleted.` });
            } else {
              await calls.createSegment.mutateAsync({
                teamName: teamName ?? team,
                name,
                filter: compactTree(view.filters),
              });
              notifications.show({
                color: 'teal',
                message: `Segment “${name}” created for ${teamName ?? team}.`,
              });
            }
          }}
        />
      )}
    </>
  );
}

const TITLES: Record<Dialog['kind'], string> = {
  save: 'Save this list as a view',
  rename: 'Rename or share the view',
  delete: 'Delete the view',
  segment: 'Create a segment from this filter',
};

/** The name (and who shares it) of a view or segment, or the confirmation of a deletion. */
function ViewDialog({
  dialog,
  teams,
  team,
  onClose,
  onSubmit,
}: {
  dialog: Dialog;
  teams: string[];
  team: string;
  onClose(): void;
  onSubmit(value: { name: string; teamName: string | null }): Promise<void>;
}) {
  const existing = dialog.kind === 'rename' || dialog.kind === 'delete' ? dialog.view : undefined;
  const [name, setName] = useState(existing?.name ?? '');
  const [share, setShare] = useState<string>(
    dialog.kind === 'segment' ? team : (existing?.teamName ?? ''),
  );
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const segment = dialog.kind === 'segment';
  const shareOptions = segment
    ? teams.map((t) => ({ value: t, label: t }))
    : [
        { value: '', label: 'Only me' },
        ...teams.map((t) => ({ value: t, label: `Shared with ${t}` })),
      ];
  const submit = async () => {
    if (dialog.kind !== 'delete' && !name.trim()) {
      setError('Give it a name.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({ name: name.trim(), teamName: share === '' ? null : share });
      onClose();
    } catch (caught) {
      setError(layoutErrorText(caught, segment ? 'segment' : 'view', name.trim()));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={TITLES[dialog.kind]}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          {dialog.kind === 'delete' ? (
            <Text size="sm">
              Delete “{dialog.view.name}”
              {dialog.view.teamName ? ` for everyone in ${dialog.view.teamName}` : ''}?
            </Text>
          ) : (
            <>
              <TextInput
                label="Name"
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                data-autofocus
                maxLength={200}
              />
              <Select
                label={segment ? 'Team' : 'Who sees it'}
                data={shareOptions}
                value={share}
                onChange={(value) => setShare(value ?? (segment ? team : ''))}
                allowDeselect={false}
              />
              {segment && (
                <Text size="xs" c="dimmed">
                  The team’s members find it among the segments of this collection.
                </Text>
              )}
            </>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={busy}
              color={dialog.kind === 'delete' ? 'red' : undefined}
            >
              {dialog.kind === 'delete' ? 'Delete' : segment ? 'Create segment' : 'Save view'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
