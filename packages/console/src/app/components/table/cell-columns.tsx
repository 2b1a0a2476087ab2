/**
 * How each chosen column renders a record's cell: its value (highlighting the search), or with
 * the display widget the team's layout gives the field (layout/WidgetCell.tsx), or for a to-one
 * relation a link to the related record labelled by its label field, or for a to-many relation
 * (with the `has-many-count` widget) the number of related records (HasManyCountCell.tsx).
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  isToMany,
  isToOne,
  labelField,
  targetCollection,
  type AgentRecord,
  type AgentSchema,
  type SchemaCollection,
  type SchemaField,
} from '../../../protocol';
import { collectionOf } from '../../data';
import type { WidgetCell as WidgetCellType } from '../../layout/WidgetCell';
import { CellRelationLink, CellValue } from '../Value';
import { visibleFields } from './column-model';
import { HasManyCountCell } from './HasManyCountCell';
import type { SaveCell } from './EditableCell';
import { inlineEditor, type InlineEditor } from './inline-edit';
import { recordPath } from '../../data-paths';

/**
 * The display widgets' code: off the first screen, loaded as soon as a table's layout gives a
 * field a widget (before its rows arrive); until then a widget cell shows the plain value. Kept
 * here once loaded and drawn directly: a lazy component would put a suspense boundary in every
 * widget cell, which costs more to render than the widgets themselves.
 */
type WidgetCellComponent = typeof WidgetCellType;
let loadedWidgetCell: WidgetCellComponent | undefined;
const loadWidgetCell = () =>
  import('../../layout/WidgetCell').then((module) => (loadedWidgetCell = module.WidgetCell));

/** A column of the table body: how a record's cell renders, and its editor if it has one. */
export interface CellColumn {
  id: string;
  render(record: AgentRecord): ReactNode;
  edit?: { field: SchemaField; editor: InlineEditor; save: SaveCell };
}

/** Stable per collection, columns, schema and search: a new page of rows re-creates nothing. */
export function useCellColumns({
  collection,
  visible,
  schema,
  base,
  search,
  canEdit = false,
  save,
  widgets,
}: {
  collection: SchemaCollection;
  visible: string[];
  schema: AgentSchema;
  /** The data pages' base path (links to related records). */
  base: string;
  search: string | undefined;
  /** The user may update the collection's records (inline-edit.ts). */
  canEdit?: boolean;
  /** Saves a cell edited in place (use-inline-save.ts); none: no editing. */
  save?: SaveCell;
  /** The display widgets of the team's layout, per field. */
  widgets?: Record<string, LayoutWidget>;
}): CellColumn[] {
  const anyWidget = widgets !== undefined && Object.keys(widgets).length > 0;
  const [WidgetCell, setWidgetCell] = useState(() => loadedWidgetCell);
  useEffect(() => {
    if (anyWidget && !WidgetCell)
      void loadWidgetCell().then((loaded) => setWidgetCell(() => loaded));
  }, [anyWidget, WidgetCell]);
  return useMemo<CellColumn[]>(
    () =>
      visibleFields(collection, visible).map((field) => {
        if (isToMany(field)) {
          // Only with the layout's `has-many-count` widget (columns.ts availableColumns); never
          // edited in place.
          const target = targetCollection(field) ?? '';
          return {
            id: field.field,
            render: (record: AgentRecord) => (
              <HasManyCountCell
                base={base}
                collection={collection.name}
                id={record.id}
                relation={field.field}
                target={target}
              />
            ),
          };
        }
        if (!isToOne(field)) {
          const editor = inlineEditor(collection, field, canEdit);
          const widget = widgets?.[field.field];
          return {
            id: field.field,
            edit: editor && save ? { field, editor, save } : undefined,
            render: (record: AgentRecord) => {
              const value = record.values[field.field];
              const cell = <CellValue field={field} value={value} search={search} />;
              if (!widget || !WidgetCell) return cell;
              return (
                <WidgetCell widget={widget} value={value} record={record.values} fallback={cell} />
              );
            },
          };
        }
        const target = collectionOf(schema, targetCollection(field));
        const label = target ? labelField(target) : undefined;
        return {
          id: field.field,
          render: (record: AgentRecord) => {
            const related = record.toOne[field.field];
            if (!related) return <span className="cv-dim">—</span>;
            return (
              <CellRelationLink
                to={recordPath(base, related.type, related.id)}
                label={String((label && related.values[label]) ?? related.id)}
                search={search}
              />
            );
          },
        };
      }),
    [collection, visible, schema, base, search, canEdit, save, widgets, WidgetCell],
  );
}
