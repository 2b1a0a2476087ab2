/** The table's search box: results update as the user types (use-search-as-you-type.ts). */
import { Loader, TextInput, VisuallyHidden } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useId } from 'react';
import type { useSearchAsYouType } from '../use-search-as-you-type';

export function SearchBox({
  name,
  searchable,
  searching,
  box,
  width,
}: {
  /** The collection's name in words, lower case. */
  name: string;
  searchable: boolean;
  searching: boolean;
  box: ReturnType<typeof useSearchAsYouType>;
  /** A fixed width, or `undefined` to fill the row (phone). */
  width: number | undefined;
}) {
  const searchId = useId();
  return (
    <>
      <TextInput
        aria-label={`Search ${name}`}
        placeholder={searchable ? `Search ${name}` : 'Search is off here'}
        title={searchable ? undefined : `The agent turned search off for ${name}`}
        disabled={!searchable}
        leftSection={<IconSearch size={14} />}
        rightSection={
          searching ? <Loader size={14} aria-hidden data-testid="searching" /> : undefined
        }
        value={box.text}
        onChange={(event) => box.setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') box.flush();
          if (event.key === 'Escape') box.clear();
        }}
        onBlur={box.flush}
        aria-describedby={`${searchId}-hint`}
        w={width}
        style={width === undefined ? { flex: 1, minWidth: 0 } : undefined}
      />
      <VisuallyHidden id={`${searchId}-hint`}>Results update as you type.</VisuallyHidden>
      <VisuallyHidden role="status">{searching ? 'Searching…' : ''}</VisuallyHidden>
    </>
  );
}
