/**
 * The toolbar's controls of the view: the filter (its builder keeps a draft until applied,
 * filter-draft.ts) and the segment.
 */
import { Select } from '@mantine/core';
import { useState } from 'react';
import {
  countLeaves,
  type AgentSchema,
  type SchemaCollection,
  type ViewState,
} from '../../../protocol';
import { useFilterDraft } from '../filter-draft';
import { filterableFields } from '../filter-fields';
import { FilterPopover } from './FilterPopover';
import type { SetView } from './use-table-view';

export function ViewControls({
  collection,
  schema,
  view,
  setView,
}: {
  collection: SchemaCollection;
  schema: AgentSchema;
  view: ViewState;
  setView: SetView;
}) {
  const [filterOpen, setFilterOpen] = useState(false);
  const { draft, setDraft, dirty } = useFilterDraft(view.filters);
  const segments = collection.segments ?? [];
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
          data={segments.map((s) => s.name)}
          value={view.segment ?? null}
          onChange={(value) => setView({ segment: value ?? undefined })}
          clearable
          w={170}
        />
      )}
    </>
  );
}
