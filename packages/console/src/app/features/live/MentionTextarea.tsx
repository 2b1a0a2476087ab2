/**
 * A message box with `@` autocompletion of the project's members: typing `@` and the start of a
 * name or email lists matching members (the platform's member suggestions); ↑/↓ move, Enter
 * (or a click) inserts `@email`, Escape closes the list. Otherwise a plain Mantine textarea.
 */
import { Popover, Text, Textarea, UnstyledButton, type TextareaProps } from '@mantine/core';
import { useDebouncedValue, useId } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { insertMention, mentionAt, moveHighlight, type MentionQuery } from './mention-query';
import { useMemberSuggestions } from './use-members';

export interface MentionTextareaProps extends Omit<TextareaProps, 'value' | 'onChange'> {
  value: string;
  onValueChange(value: string): void;
}

export function MentionTextarea({ value, onValueChange, ...props }: MentionTextareaProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [query, setQuery] = useState<MentionQuery | null>(null);
  const [highlight, setHighlight] = useState(0);
  const [prefix] = useDebouncedValue(query?.prefix ?? '', 120);
  const suggestions = useMemberSuggestions(prefix, query !== null);
  const options = query ? (suggestions.data ?? []) : [];
  const open = query !== null && options.length > 0;

  const follow = (element: HTMLTextAreaElement) => {
    const next = mentionAt(element.value, element.selectionStart);
    setQuery(next);
    if (next?.prefix !== query?.prefix) setHighlight(0);
  };
  const pick = (email: string) => {
    const element = ref.current;
    if (!element || !query) return;
    const next = insertMention(value, element.selectionStart, query, email);
    onValueChange(next.text);
    setQuery(null);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <Popover
      opened={open}
      position="bottom-start"
      withinPortal
      trapFocus={false}
      returnFocus={false}
      closeOnEscape={false}
      // The textarea names its list itself (a textbox takes no aria-expanded).
      withRoles={false}
      shadow="md"
    >
      <Popover.Target>
        <Textarea
          {...props}
          ref={ref}
          value={value}
          // A textbox (a multi-line combobox is not one) that names its list and option.
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${highlight}` : undefined}
          onChange={(event) => {
            onValueChange(event.currentTarget.value);
            follow(event.currentTarget);
          }}
          onSelect={(event) => follow(event.currentTarget)}
          onBlur={() => setQuery(null)}
          onKeyDown={(event) => {
            if (!open) return;
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              setHighlight((current) =>
                moveHighlight(current, options.length, event.key as 'ArrowUp'),
              );
            } else if (event.key === 'Enter' || event.key === 'Tab') {
              event.preventDefault();
              pick(options[Math.max(0, highlight)]!.email);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              setQuery(null);
            }
          }}
        />
      </Popover.Target>
      <Popover.Dropdown p={4}>
        <div role="listbox" id={listId} aria-label="Members to mention">
          {options.map((member, index) => (
            <UnstyledButton
              key={member.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === highlight}
              tabIndex={-1}
              display="block"
              w="100%"
              px="sm"
              py={4}
              style={{
                borderRadius: 4,
                background: index === highlight ? 'var(--mantine-color-teal-light)' : undefined,
              }}
              // Before the textarea's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(member.email);
              }}
            >
              <Text size="sm" fw={500}>
                {member.name || member.email}
              </Text>
              <Text size="xs" c="dimmed">
                {member.email}
              </Text>
            </UnstyledButton>
          ))}
        </div>
      </Popover.Dropdown>
    </Popover>
  );
}
