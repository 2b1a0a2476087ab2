/**
 * A table cell the user may edit in place (inline-edit.ts): double-click, or Enter when the cell
 * has the focus (→ from its row, ←/→ between editable cells), opens the editor of its type; Enter
 * saves that one value, Escape cancels. A refusal stays on the cell, in words, with the typed
 * value kept for correction. A single click still opens the record, once a double-click is ruled out.
 */
import { Loader, NativeSelect, TextInput } from '@mantine/core';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { humanize, type AgentRecord, type SchemaField } from '../../../protocol';
import { editedValue, editText, type InlineEditor } from './inline-edit';

/** How long a click waits for a second one before it opens the record. */
const DOUBLE_CLICK_MS = 250;

export type SaveCell = (record: AgentRecord, field: string, value: unknown) => Promise<void>;

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
  const cellRef = useRef<HTMLTableCellElement>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const errorId = useId();
  useEffect(() => () => clearTimeout(clickTimer.current), []);
  const editing = text !== undefined;

  const start = () => {
    clearTimeout(clickTimer.current);
    setError(undefined);
    setText(editText(editor, record.values[field.field]));
  };
  const stop = () => {
    setText(undefined);
    setError(undefined);
    cellRef.current?.focus();
  };
  const commit = async () => {
    const edited = editedValue(editor, text ?? '');
    if ('problem' in edited) return setError(edited.problem);
    setSaving(true);
    try {
      await save(record, field.field, edited.value);
      stop();
    } catch (refusal) {
      setError((refusal as Error).message);
    } finally {
      setSaving(false);
    }
  };

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
          <div id={errorId} role="alert" className="rt-cell-error" data-testid="cell-error">
            {error}
          </div>
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
