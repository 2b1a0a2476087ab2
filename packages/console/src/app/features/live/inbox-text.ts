import type { InboxItem } from '@canopy/platform-protocol';
import { humanize } from '../../../protocol';

/** What an inbox item says, in a sentence. */
export function inboxText(item: InboxItem): string {
  const who = item.by?.name || item.by?.email || 'Someone';
  if (item.kind === 'mention') {
    const where = item.note.collectionName
      ? ` on ${humanize(item.note.collectionName)} #${item.note.recordId}`
      : '';
    return `${who} mentioned you in “${item.note.title}”${where}`;
  }
  const count = item.approval.recordIds.length;
  // "on 1 record of Orders", as a mention says "on Orders #7" (not "1 orders record").
  return `${who} asks to approve ${item.approval.actionName} on ${count} record${
    count === 1 ? '' : 's'
  } of ${humanize(item.approval.collectionName)}`;
}
