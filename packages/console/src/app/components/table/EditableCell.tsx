/**
 * A table cell the user may edit in place (inline-edit.ts): double-click, or Enter when the cell
 * has the focus (→ from its row, ←/→ between editable cells), opens the editor of its type; Enter
 * saves that one value, Escape cancels. A refusal stays on the cell, in words, with the typed
 * value kept for correction. A record changed by someone else since the edit started is never
 * overwritten silently: the cell says so, with their value, and lets the user keep theirs or
 * save hers. A single click still opens the record, once a double-click is ruled out.
 */
import { Button, Group, Loader, NativeSelect, TextInput } from '@mantine/core';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { humanize, type AgentRecord, type SchemaField } from '../../../protocol';
import { formatFieldValue } from '../format';
import { editedValue, editText, type InlineEditor } from './inline-edit';
import { InlineConflict, type CellBase, type SaveCell } from './use-inline-save';

export type { SaveCell };

/** How long a click waits for a second one before it opens the record. */
const DOUBLE_CLICK_MS = 250;

function EditorInput({
  editor,
  field,
  text,
  error,
  errorId,
  onText,
  onKeyDown,
}: {
  editor: InlineEditor;
  field: SchemaField;
  text: string;
  error: string | undefined;
  errorId: string;
  onText(text: string): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
}) {
  const common = {
    size: 'xs' as const,
    autoFocus: true,
    'aria-label': `${humanize(field.field)} (Enter saves, Escape cancels)`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    error: Boolean(error),
    onKeyDown,
  };
  if (editor === 'enum' || editor === 'boolean') {
    const options =
      editor === 'boolean'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : (field.enums ?? []).map((value) => ({ value, label: value }));
    const blank = !field.isRequired || text === '' ? [{ value: '', label: '—' }] : [];
    return (
      <NativeSelect
        {...common}
        data={[...blank, ...options]}
        value={text}
        onChange={(event) => onText(event.currentTarget.value)}
      />
    );
  }
  const type =
    editor === 'number'
      ? 'text'
      : editor === 'date'
        ? 'datetime-local'
        : editor === 'dateonly'
          ? 'date'
          : 'text';
  return (
    <TextInput
      {...common}
      type={type}
      inputMode={editor === 'number' ? 'decimal' : undefined}
      value={text}
      onChange={(event) => onText(event.currentTarget.value)}
    />
  );
}

/** Moves the focus to the previous/next editable cell of the row, or back to the row. */
function moveFocus(cell: HTMLElement, key: string): void {
  const row = cell.closest('tr');
  if (!row) return;
  const cells = [...row.querySelectorAll<HTMLElement>('[data-editable-cell]')];
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  const next = step ? cells[cells.indexOf(cell) + step] : undefined;
  if (next) next.focus();
  else if (key !== 'ArrowRight') row.focus();
}

export function EditableCell({
  record,
  field,
  editor,
  save,
  onOpen,
  children,
}: {
  record: AgentRecord;
  field: SchemaField;
  editor: InlineEditor;
  save: SaveCell;
  onOpen(record: AgentRecord): void;
  children: ReactNode;
}) {
  const [text, setText] = useState<string>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<InlineConflict>();
  /** The record's tag and value read when the edit started (use-inline-save.ts). */
  const base = useRef<Promise<CellBase>>(undefined);
  const cellRef = useRef<HTMLTableCellElement>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const errorId = useId();
  useEffect(() => () => clearTimeout(clickTimer.current), []);
  const editing = text !== undefined;

  const start = () => {
    clearTimeout(clickTimer.current);
    setError(undefined);
    setConflict(undefined);
    const reading = save.begin?.(record, field.field);
    // Read in the background; a failed read only means no `If-Match` (the save says the rest).
    reading?.catch(() => undefined);
    base.current = reading;
    setText(editText(editor, record.values[field.field]));
  };
  const stop = () => {
    setText(undefined);
    setError(undefined);
    setConflict(undefined);
    base.current = undefined;
    cellRef.current?.focus();
  };
  const commit = async () => {
    const edited = editedValue(editor, text ?? '');
    if ('problem' in edited) return setError(edited.problem);
    setSaving(true);
    setConflict(undefined);
    try {
      if (base.current) await save(record, field.field, edited.value, base.current);
      else await save(record, field.field, edited.value);
      stop();
    } catch (refusal) {
      if (refusal instanceof InlineConflict) setConflict(refusal);
      setError((refusal as Error).message);
    } finally {
      setSaving(false);
    }
  };
  /** Saves the typed value over theirs, now that the user has seen it. */
  const keepMine = () => {
    if (!conflict) return;
    base.current = Promise.resolve({ etag: conflict.etag, current: conflict.theirs });
    void commit();
  };
  /** Drops the typed value: the cell shows theirs. */
  const takeTheirs = () => {
    if (!conflict) return;
    save.adopt?.(record, field.field, conflict.theirs);
    stop();
  };
  const theirsText =
    conflict && (conflict.theirs === null || conflict.theirs === undefined)
      ? 'empty'
      : conflict
        ? `“${formatFieldValue(field, conflict.theirs)}”`
        : '';

  if (editing) {
    return (
      <td
        ref={cellRef}
        className="rt-editing"
        onClick={(event) => event.stopPropagation()}
        onDoubleClick={(event) => event.stopPropagation()}
      >
        <div className="rt-editor">
          <EditorInput
            editor={editor}
            field={field}
            text={text}
            error={error}
            errorId={errorId}
            onText={setText}
            onKeyDown={(event) => {
              event.stopPropagation();
              if (event.key === 'Enter' && !saving) {
                event.preventDefault();
                void commit();
              } else if (event.key === 'Escape') {
                event.preventDefault();
                stop();
              }
            }}
          />
          {saving && <Loader size={14} aria-label="Saving" />}
        </div>
        {error && (
          <div
            id={errorId}
            role="alert"
            className="rt-cell-error"
            data-testid={conflict ? 'cell-conflict' : 'cell-error'}
          >
            {conflict ? `Changed since you started editing: now ${theirsText}.` : error}
          </div>
        )}
        {conflict && (
          <Group gap={4} mt={2} wrap="nowrap">
            <Button size="compact-xs" variant="light" disabled={saving} onClick={keepMine}>
              Keep mine
            </Button>
            <Button size="compact-xs" variant="subtle" disabled={saving} onClick={takeTheirs}>
              Take theirs
            </Button>
          </Group>
        )}
      </td>
    );
  }
  return (
    <td
      ref={cellRef}
      tabIndex={-1}
      data-editable-cell={field.field}
      title="Double-click or press Enter to edit"
      onClick={(event) => {
        event.stopPropagation();
        if (event.detail > 1) return;
        clickTimer.current = setTimeout(() => onOpen(record), DOUBLE_CLICK_MS);
      }}
      onDoubleClick={start}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter' || event.key === 'F2') {
          event.preventDefault();
          event.stopPropagation();
          start();
        } else if (
          ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Escape'].includes(event.key)
        ) {
          event.preventDefault();
          event.stopPropagation();
          moveFocus(event.currentTarget, event.key);
        }
      }}
    >
      {children}
    </td>
  );
}
