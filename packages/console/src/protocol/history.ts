/**
 * Record history (agent protocol §13.1): the entries an agent started with an audit trail
 * answers on `GET /forest/_audit-trail/{c}/{id}`, and what the record view shows of them.
 */

import type { HistoryEntry } from '@canopy/platform-protocol';

export type { HistoryEntry };

/** A person who wrote entries of a record (`meta.availableUsers`, for the people filter). */
export interface HistoryUser {
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** One page of a record's history, newest first; `count` is the total of matching entries. */
export interface HistoryPage {
  data: HistoryEntry[];
  meta: { count: number; availableUsers?: HistoryUser[] };
}

/** What the History tab filters on (agent protocol §13.1); empty means "any". */
export interface HistoryFilters {
  userIds?: number[];
  fields?: string[];
  /** `YYYY-MM-DD` (from the start of the day, in the caller's time zone). */
  startDate?: string;
  /** `YYYY-MM-DD` (to the end of the day). */
  endDate?: string;
  search?: string;
}

/** Entries per page in the record view (the agent's default; at most 100). */
export const HISTORY_PAGE_SIZE = 20;

/** The query string of one page (`page[number]` from 1; literal brackets, as the agent reads). */
export function historyQuery(
  timezone: string,
  page: number,
  size = HISTORY_PAGE_SIZE,
  filters: HistoryFilters = {},
): string {
  const parts = [`timezone=${encodeURIComponent(timezone)}`];
  // The first page is asked without `page[number]` so that the agent adds `availableUsers`.
  if (page > 1) parts.push(`page[number]=${page}`);
  parts.push(`page[size]=${size}`);
  if (filters.userIds?.length) parts.push(`userIds=${filters.userIds.join(',')}`);
  if (filters.fields?.length) {
    parts.push(`fields=${filters.fields.map(encodeURIComponent).join(',')}`);
  }
  if (filters.startDate) parts.push(`startDate=${encodeURIComponent(filters.startDate)}`);
  if (filters.endDate) parts.push(`endDate=${encodeURIComponent(filters.endDate)}`);
  const search = filters.search?.trim();
  if (search) parts.push(`search=${encodeURIComponent(search)}`);
  return parts.join('&');
}

/** Entries in runs of one correlation (what one request wrote), in the order given. */
export interface HistoryGroup {
  correlationKey: string;
  entries: HistoryEntry[];
}

/** Consecutive entries sharing a correlation key, as one group each. */
export function groupByCorrelation(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  for (const entry of entries) {
    const last = groups[groups.length - 1];
    if (last && last.correlationKey === entry.correlationKey) last.entries.push(entry);
    else groups.push({ correlationKey: entry.correlationKey, entries: [entry] });
  }
  return groups;
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
 * (the agent sends only those), every value of a create (after) or of a delete (before). An
 * action run changes no field itself: its values are the form sent and a summary of the answer.
 */
export function historyChanges(entry: HistoryEntry): HistoryChange[] {
  if (entry.operation === 'action' || entry.operation === 'action_failed') return [];
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
