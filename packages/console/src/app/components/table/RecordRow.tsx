import { memo, type CSSProperties } from 'react';
import type { AgentRecord } from '../../../protocol';
import type { CellColumn } from './cell-columns';
import { EditableCell } from './EditableCell';

/**
 * One record's row, memoized: selecting a row or a new count re-renders that row or nothing, and
 * its cells are plain `<td>`s (table.css) around light cell values.
 */
export const RecordRow = memo(function RecordRow({
  record,
  rowIndex,
  columns,
  selected,
  active,
  onToggle,
  onOpen,
  colour,
}: {
  record: AgentRecord;
  /** Among all the records of the view, the header row being 1 (`aria-rowindex`). */
  rowIndex: number;
  columns: CellColumn[];
  selected: boolean;
  /** The row of the table's one Tab stop (use-row-keys.ts handles the keys). */
  active: boolean;
  onToggle(id: string, checked: boolean): void;
  onOpen(record: AgentRecord): void;
  /** The colour the team's layout gives the row, and why in words (use-row-colours.ts). */
  colour?: { colour: string; label: string };
}) {
  return (
    <tr
      className="rt-row"
      onClick={() => onOpen(record)}
      tabIndex={active ? 0 : -1}
      data-selected={selected || undefined}
      data-record-id={record.id}
      aria-rowindex={rowIndex}
      data-row-colour={colour?.colour}
      title={colour?.label}
      style={colour ? ({ '--rt-row-colour': colour.colour } as CSSProperties) : undefined}
    >
      <td style={{ width: 36 }}>
        {colour && <span className="rt-row-why">{colour.label}</span>}
        <input
          type="checkbox"
          className="rt-check"
          tabIndex={-1}
          aria-label={`Select record ${record.id}`}
          checked={selected}
          onClick={(event) => event.stopPropagation()}
          onChange={(event) => onToggle(record.id, event.currentTarget.checked)}
        />
      </td>
      {columns.map((column) =>
        column.edit ? (
          <EditableCell
            key={column.id}
            record={record}
            field={column.edit.field}
            editor={column.edit.editor}
            save={column.edit.save}
            onOpen={onOpen}
          >
            {column.render(record)}
          </EditableCell>
        ) : (
          <td key={column.id}>{column.render(record)}</td>
        ),
      )}
    </tr>
  );
});
