/**
 * The Console's live stream and inbox (docs/public-api.md §8): the event names and
 * payloads a Console stream carries, the stream ticket, inbox items and member suggestions.
 */

/** Events of a Console stream (each an SSE `event:` name with a JSON `data:` line). */
export const CONSOLE_EVENT_NAMES = [
  'rights-changed',
  'note-created',
  'note-updated',
  'note-deleted',
  'mention',
  'record-changed',
  'presence',
  'approval-requested',
  'approval-decided',
  'resync',
  'ready',
] as const;
export type ConsoleEventName = (typeof CONSOLE_EVENT_NAMES)[number];

/** `rights-changed`: the member's permission level, role or teams changed; reload rights. */
export interface RightsChangedEvent {
  userId: number;
}

/** `note-created`, `note-updated`, `note-deleted`: a note of the stream's environment. */
export interface NoteChangedEvent {
  noteId: number;
  collectionName: string | null;
  recordId: string;
  /** Who made the change. */
  userId: number;
}

/** `mention`: the stream's user was mentioned in a note message. */
export interface MentionEvent {
  inboxItemId: number;
  noteId: number;
  collectionName: string | null;
  recordId: string;
  /** Who wrote the message. */
  byUserId: number;
}

/**
 * `record-changed`: a write an agent reported (`POST /liana/v1/record-changes`,
 * docs/platform-protocol.md §7.1); also the body of that call.
 */
export interface RecordChangedEvent {
  collection: string;
  recordId: string;
  /** Who made the write. */
  userId: number;
  operation: 'create' | 'update' | 'delete';
  /** The fields written (empty for a delete). */
  fields: string[];
  correlationId?: string;
}

/** `presence`: who has a record open now (an empty list: nobody). */
export interface PresenceEvent {
  collection: string;
  recordId: string;
  userIds: number[];
}

/**
 * `approval-requested`: an action approval request was filed; sent to its requester and to the
 * members whose role may approve it, in the request's environment.
 */
export interface ApprovalRequestedEvent {
  approvalId: number;
  collection: string;
  actionName: string;
  recordIds: string[];
  requesterId: number;
  status: 'pending';
  /** The recipient's inbox item for it (null for the requester, who gets none). */
  inboxItemId: number | null;
}

/**
 * `approval-decided`: a request was approved or rejected; sent to its requester, to the members
 * whose role may approve it and to those who had it in their inbox (now read).
 */
export interface ApprovalDecidedEvent {
  approvalId: number;
  collection: string;
  actionName: string;
  recordIds: string[];
  requesterId: number;
  status: 'approved' | 'rejected';
  /** Who decided. */
  deciderId: number;
}

/** `resync`: the events since `Last-Event-ID` can no longer be replayed; reload everything. */
export interface ResyncEvent {
  reason: 'too-old' | 'unknown-id';
}

/** `POST …/live/tickets` answer: a single-use ticket opening one stream within a minute. */
export interface ConsoleStreamTicket {
  object: 'live-stream-ticket';
  ticket: string;
  expiresAt: string;
  /** Path of the stream with the ticket, to give to `EventSource`. */
  url: string;
}

interface InboxItemBase {
  object: 'inbox-item';
  id: number;
  /** Who wrote the message, or filed the request. */
  by: { id: number; email: string; name: string } | null;
  createdAt: string;
  readAt: string | null;
}

/** An inbox item for a note message mentioning its owner. */
export interface MentionInboxItem extends InboxItemBase {
  kind: 'mention';
  note: { id: number; title: string; collectionName: string | null; recordId: string };
  approval: null;
}

/**
 * An inbox item for an action approval request its owner's role may decide: unread until read or
 * decided (by anyone), then a read item showing the decision.
 */
export interface ApprovalInboxItem extends InboxItemBase {
  kind: 'approval';
  note: null;
  approval: {
    id: number;
    collectionName: string;
    actionName: string;
    recordIds: string[];
    status: 'pending' | 'approved' | 'rejected';
  };
}

/** One inbox item: a mention, or an approval request awaiting a decision. */
export type InboxItem = MentionInboxItem | ApprovalInboxItem;

/** `GET …/inbox` answer. */
export interface InboxPage {
  data: InboxItem[];
  hasMore: boolean;
  nextCursor: string | null;
  unreadCount: number;
}

/** One `GET /v1/project/{projectName}/member-suggestions` answer row (for @-autocomplete). */
export interface MemberSuggestion {
  object: 'member-suggestion';
  id: number;
  email: string;
  name: string;
}
