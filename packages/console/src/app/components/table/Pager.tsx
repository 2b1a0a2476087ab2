/** The page size and the pages: numbered when the records are counted, else previous/next. */
import { Button, Group, Pagination, Select } from '@mantine/core';
import { PAGE_SIZES } from '../../../protocol';

export function Pager({
  page,
  size,
  pageCount,
  full,
  onPage,
  onSize,
}: {
  page: number;
  size: number;
  pageCount: number | undefined;
  /** This page is full (there may be a next one when the records are not counted). */
  full: boolean;
  onPage(page: number): void;
  onSize(size: number): void;
}) {
  return (
    <Group gap="xs">
      <Select
        aria-label="Records per page"
        data={PAGE_SIZES.map((value) => ({ value: String(value), label: `${value} per page` }))}
        value={String(size)}
        onChange={(value) => onSize(Number(value))}
        w={130}
        size="xs"
        allowDeselect={false}
      />
      {pageCount !== undefined ? (
        <Pagination
          size="sm"
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={onPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          siblings={1}
        />
      ) : (
        <Group gap={4}>
          <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button size="xs" variant="default" disabled={!full} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </Group>
      )}
    </Group>
  );
}
