/**
 * Record history (agent protocol §13.1): the entries an agent started with an audit trail
 * answers on `GET /forest/_audit-trail/{c}/{id}`, and what the record view shows of them.
 */

import type { HistoryEntry } from '@canopy/platform-protocol';

export type { HistoryEntry };

/** One page of a record's history, newest first; `count` is the total of entries. */
export interface HistoryPage {
  data: HistoryEntry[];
  meta: { count: number };
}

/** Entries per page in the record view (the agent's default; at most 100). */
export const HISTORY_PAGE_SIZE = 20;

/** The query string of one page (`page[number]` from 1; literal brackets, as the agent reads). */
export function historyQuery(timezone: string, page: number, size = HISTORY_PAGE_SIZE): string {
  return `timezone=${encodeURIComponent(timezone)}&page[number]=${page}&page[size]=${size}`;
}

/** The number of the page after `pages`, or `undefined` once every entry is loaded. */
export function nextHistoryPage(pages: readonly HistoryPage[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
  const last = pages[pages.length - 1];
  if (!last || last.data.length === 0 || loaded >= last.meta.count) return undefined;
  return pages.length + 1;
}

/** Who made the change: first and last name, else the email, else the user id. */
export function historyWho(entry: HistoryEntry): string {
  const name = [entry.userFirstName, entry.userLastName].filter(Boolean).join(' ');
  if (name) return name;
  if (entry.userEmail) return entry.userEmail;
  return entry.userId === null ? 'Unknown user' : `User #${entry.userId}`;
}

/** What happened, in a few words. */
export function historyWhat(entry: HistoryEntry): string {
  switch (entry.operation) {
    case 'create':
      return 'Created';
    case 'update':
      return 'Updated';
    case 'delete':
      return 'Deleted';
    case 'action':
      return `Ran “${entry.actionName ?? 'an action'}”`;
    case 'action_failed':
      return `“${entry.actionName ?? 'An action'}” failed`;
    default:
      return String(entry.operation);
  }
}

/** One changed field: its value before and after (`undefined`: the side has no value). */
export interface HistoryChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields an entry changed, in the order the agent sent them: an update's changed fields
 * (the agent sends only those), every value of a create (after) or of a delete (before).
 */
export function historyChanges(entry: HistoryEntry): HistoryChange[] {
  const before = entry.previousValues ?? {};
  const after = entry.newValues ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    before: field in before ? before[field] : undefined,
    after: field in after ? after[field] : undefined,
  }));
}

/** A stored value as text: `—` for none, JSON for objects and lists. */
export function formatHistoryValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
