/**
 * What the bulk actions bar does to the selected records, and how it says so: delete them,
 * dissociate them from the parent record (a related tab), or delete them from there.
 */
import { formatCount, recordCount } from './selection';

export type BulkMode = 'delete' | 'dissociate' | 'delete-related';

/** The notice after the change. */
export function bulkDoneMessage(mode: BulkMode, count: number): string {
  return `${recordCount(count)} ${mode === 'dissociate' ? 'dissociated' : 'deleted'}.`;
}

/** The confirmation dialog's title, text and button. */
export function bulkConfirmText(mode: BulkMode | undefined, count: number) {
  const one = count === 1;
  const n = formatCount(count);
  return mode === 'dissociate'
    ? {
        title: 'Dissociate records?',
        text: `The ${n} selected ${one ? 'record stays' : 'records stay'}, but ${one ? 'is' : 'are'} no longer linked to this record.`,
        button: 'Dissociate',
      }
    : {
        title: 'Delete records?',
        text: `The ${n} selected ${one ? 'record is' : 'records are'} deleted for good. This cannot be undone.`,
        button: `Delete ${n}`,
      };
}

/** The right the agent refused when it answers 403 to the change. */
export function bulkRight(mode: BulkMode): 'editEnabled' | 'deleteEnabled' {
  return mode === 'dissociate' ? 'editEnabled' : 'deleteEnabled';
}
