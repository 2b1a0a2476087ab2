/**
 * The toolbar's controls of the view: the filter (its builder keeps a draft until applied,
 * filter-draft.ts), the segment (the agent's and the team's Console segments) and, on a
 * collection's own list, the saved views (ViewsMenu.tsx).
 */
import { Button, Select } from '@mantine/core';
import { IconBookmarks, IconChevronDown } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import {
  countLeaves,
  type AgentSchema,
  type SchemaCollection,
  type ViewState,
} from '../../../protocol';
import { useFilterDraft } from '../filter-draft';
import { filterableFields } from '../filter-fields';
import { FilterPopover } from './FilterPopover';
import type { useColumnPrefs } from './use-column-prefs';
import { useTeamSegments } from './use-saved-views';
import type { SetView } from './use-table-view';

/**
 * The saved views' menu and dialogs load with the toolbar, not with the first screen (they would
 * take it over its budget); until then, the same button, waiting.
 */
const ViewsMenu = lazy(() =>
  import('./ViewsMenu').then((module) => ({ default: module.ViewsMenu })),
);

function ViewsButtonLoading() {
  return (
    <Button
      variant="default"
      disabled
      leftSection={<IconBookmarks size={16} aria-hidden />}
      rightSection={<IconChevronDown size={14} aria-hidden />}
      aria-label="Views"
    >
      Views
    </Button>
  );
}

export function ViewControls({
  collection,
  schema,
  view,
  setView,
  saved,
}: {
  collection: SchemaCollection;
  schema: AgentSchema;
  view: ViewState;
  setView: SetView;
  /** A collection's own list: its saved views and the team's segments. */
  saved?: { params: URLSearchParams; prefs: ReturnType<typeof useColumnPrefs> };
}) {
  const [filterOpen, setFilterOpen] = useState(false);
  const { draft, setDraft, dirty } = useFilterDraft(view.filters);
  const teamSegments = useTeamSegments(collection.name, saved !== undefined).data ?? [];
  const segments = [
    ...new Set([
      ...(collection.segments ?? []).map((s) => s.name),
      ...teamSegments.map((s) => s.name),
    ]),
  ];
  return (
    <>
      <FilterPopover
        opened={filterOpen}
        setOpened={setFilterOpen}
        filterCount={countLeaves(view.filters)}
        draft={draft}
        setDraft={setDraft}
        dirty={dirty}
        fields={filterableFields(schema, collection)}
        apply={(filters) => setView({ filters })}
      />
      {segments.length > 0 && (
        <Select
          aria-label="Segment"
          placeholder="All records"
          data={segments}
          value={view.segment ?? null}
          onChange={(value) => setView({ segment: value ?? undefined })}
          clearable
          w={170}
        />
      )}
      {saved && (
        <Suspense fallback={<ViewsButtonLoading />}>
          <ViewsMenu
            collection={collection}
            view={view}
            params={saved.params}
            prefs={saved.prefs}
          />
        </Suspense>
      )}
    </>
  );
}
