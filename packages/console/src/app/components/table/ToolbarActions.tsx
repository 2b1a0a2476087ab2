/**
 * The toolbar's actions: the collection's actions on the selection, the bulk actions bar, the
 * column chooser, the CSV export, and "Associate" (a related tab) or "New" (a collection's list).
 */
import { Button } from '@mantine/core';
import { IconDownload, IconLink, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { humanize, type ActionSelection, type SchemaCollection } from '../../../protocol';
import { ActionsMenu } from '../../features/actions/ActionsMenu';
import { ImportCsvButton } from '../../features/import/ImportCsvButton';
import { BulkEditButton } from '../../features/bulk-edit/BulkEditButton';
import { ColumnChooser } from '../ColumnChooser';
import { BulkButtons } from './BulkActions';
import type { BulkMode } from './bulk-change';
import type { useColumnPrefs } from './use-column-prefs';

export interface ToolbarRights {
  canDelete: boolean;
  canExport: boolean;
  canAdd: boolean;
  /** A related tab whose relation the user may edit (associate, dissociate). */
  canEditRelation: boolean;
}

export function ToolbarActions({
  collection,
  selection,
  related,
  rights,
  columns,
  exporting,
  onExport,
  onAsk,
  onAssociate,
  onBulkEdit,
  newUrl,
  layout,
}: {
  collection: SchemaCollection;
  selection: ActionSelection;
  related: boolean;
  rights: ToolbarRights;
  columns: ReturnType<typeof useColumnPrefs>;
  exporting: boolean;
  onExport(): void;
  onAsk(mode: BulkMode): void;
  onAssociate(): void;
  /** Opens the bulk edit of the selection; absent when the role may not edit. */
  onBulkEdit?: () => void;
  /** Where "New" goes. */
  newUrl: string;
  /** Layout mode's button, for layout editors. */
  layout?: ReactNode;
}) {
  return (
    <>
      <ActionsMenu collection={collection} place="table" selection={selection} />
      {onBulkEdit && (
        <BulkEditButton count={selection.count ?? selection.ids.length} onClick={onBulkEdit} />
      )}
      <BulkButtons
        count={selection.count ?? selection.ids.length}
        related={related}
        canDissociate={rights.canEditRelation}
        canDelete={rights.canDelete}
        ask={onAsk}
      />
      <ColumnChooser
        all={columns.available}
        visible={columns.visible}
        onChange={columns.set}
        onReset={columns.reset}
      />
      {layout}
      {rights.canExport && (
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={onExport}
          loading={exporting}
        >
          Export CSV
        </Button>
      )}
      {related && rights.canEditRelation && (
        <Button variant="default" leftSection={<IconLink size={16} />} onClick={onAssociate}>
          Associate
        </Button>
      )}
      {!related && rights.canAdd && <ImportCsvButton collection={collection.name} />}
      {!related && rights.canAdd && (
        <Button component={Link} to={newUrl} leftSection={<IconPlus size={16} />}>
          New {humanize(collection.name).replace(/s$/, '').toLowerCase()}
        </Button>
      )}
    </>
  );
}
