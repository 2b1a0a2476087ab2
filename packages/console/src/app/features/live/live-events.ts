/**
 * What each live event means for the Console (docs/public-api.md §8), as pure functions: which
 * cached queries it makes stale, and the store of who has which record open. The stream's
 * status is kept here too, module-wide, so that the rights poll (outside the live provider)
 * can stop while the stream is up.
 */
import type { ConsoleEventName, PresenceEvent } from '@canopy/platform-protocol';
import type { LiveStatus } from './live-client';

/**
 * The query-key prefixes an event makes stale: `workspaceId` is `useSession().workspace.id`.
 * Record changes are not among them: a page shows them as a notice and reloads on request, so
 * that a form being typed in is never replaced under the user's hands.
 */
export function staleQueries(type: ConsoleEventName, workspaceId: string): unknown[][] {
  switch (type) {
    case 'rights-changed':
      return [['me-environment']];
    case 'approval-requested':
    case 'approval-decided':
      return [['approvals', workspaceId], ['inbox']];
    case 'note-created':
    case 'note-updated':
    case 'note-deleted':
      return [['notes']];
    case 'mention':
      return [['inbox'], ['notes']];
    case 'resync':
      // Events were lost: everything the platform told may be old.
      return [['me-environment'], ['approvals'], ['inbox'], ['notes']];
    default:
      return [];
  }
}

const statusListeners = new Set<() => void>();
let status: LiveStatus = 'connecting';

export function liveStatus(): LiveStatus {
  return status;
}

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  statusListeners.forEach((listener) => listener());
}

export function onLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/**
 * A polling interval that applies only while the stream cannot connect: `false` (no polling)
 * while it is open or still connecting, `ms` once an attempt failed.
 */
export function fallbackInterval(current: LiveStatus, ms: number): number | false {
  return current === 'down' ? ms : false;
}

/** Who has each record open (`collection/recordId` → user ids), from `presence` events. */
export class PresenceStore {
  private readonly open = new Map<string, readonly number[]>();
  private readonly listeners = new Set<() => void>();
  /** Changes with every change of the store (a `useSyncExternalStore` snapshot). */
  version = 0;

  static key(collection: string, recordId: string): string {
    return `${collection}/${recordId}`;
  }

  apply(event: PresenceEvent): void {
    const key = PresenceStore.key(event.collection, event.recordId);
    if (event.userIds.length) this.open.set(key, [...event.userIds]);
    else this.open.delete(key);
    this.version += 1;
    this.listeners.forEach((listener) => listener());
  }

  /** Everyone but `me` who has the record open. */
  others(collection: string, recordId: string, me: number): readonly number[] {
    return (this.open.get(PresenceStore.key(collection, recordId)) ?? []).filter((id) => id !== me);
  }

  clear(): void {
    this.open.clear();
    this.version += 1;
    this.listeners.forEach((listener) => listener());
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
