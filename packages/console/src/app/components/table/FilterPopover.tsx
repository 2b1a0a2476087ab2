/**
 * The Filter button and its builder: a draft (filter-draft.ts) applied on "Apply filter", kept
 * when the builder closes. The builder and its inputs load when the filter is first opened.
 */
import { Badge, Button, Group, Popover, Skeleton, Stack, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import type { ConditionBranch, ConditionTree } from '../../../protocol';
import { asGroup, type FilterableField } from '../filter-fields';
import { innerPopupOpen } from '../inner-popup';

const FilterBuilder = lazy(() =>
  import('../FilterBuilder').then((module) => ({ default: module.FilterBuilder })),
);

export function FilterPopover({
  opened,
  setOpened,
  filterCount,
  draft,
  setDraft,
  dirty,
  fields,
  apply,
}: {
  opened: boolean;
  setOpened(next: boolean | ((was: boolean) => boolean)): void;
  /** Conditions of the applied filter (the button's badge). */
  filterCount: number;
  draft: ConditionBranch;
  setDraft(draft: ConditionBranch): void;
  dirty: boolean;
  fields: FilterableField[];
  apply(filters: ConditionTree | undefined): void;
}) {
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={640}
      position="bottom-start"
      shadow="md"
      trapFocus
      // Escape closes the innermost open list first (a field's options, a date picker), then the
      // builder, which keeps its draft; focus goes back to the Filter button.
      closeOnEscape={false}
      returnFocus
    >
      <Popover.Target>
        <Button
          variant={filterCount ? 'light' : 'default'}
          leftSection={<IconFilter size={16} />}
          rightSection={
            filterCount ? (
              <Badge size="xs" circle>
                {filterCount}
              </Badge>
            ) : undefined
          }
          onClick={() => setOpened((open) => !open)}
          aria-description={dirty ? 'A draft filter is not applied yet' : undefined}
        >
          Filter
          {dirty && !opened && (
            <Text span size="xs" c="orange" ml={6} data-testid="filter-draft">
              draft
            </Text>
          )}
        </Button>
      </Popover.Target>
      <Popover.Dropdown
        maw="calc(100vw - 32px)"
        onKeyDownCapture={(event) => {
          if (event.key !== 'Escape' || innerPopupOpen(event.currentTarget)) return;
          event.stopPropagation();
          setOpened(false);
        }}
      >
        <Stack gap="sm">
          <Suspense fallback={<Skeleton h={36} aria-label="Loading the filter" />}>
            <FilterBuilder value={draft} fields={fields} onChange={setDraft} />
          </Suspense>
          <Group justify="space-between">
            {dirty ? (
              <Text size="xs" c="dimmed">
                Not applied yet: closing keeps this draft.
              </Text>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button
                variant="subtle"
                color="gray"
                onClick={() => {
                  setDraft(asGroup(undefined));
                  apply(undefined);
                  setOpened(false);
                }}
              >
                Clear
              </Button>
              <Button
                onClick={() => {
                  apply(draft);
                  setOpened(false);
                }}
              >
                Apply filter
              </Button>
            </Group>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
