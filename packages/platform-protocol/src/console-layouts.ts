/**
 * The Console shaped by its users (issue 32): the layout of a team in an environment, saved views
 * and team segments, as the platform server stores and answers them (public API, "Console
 * layouts"; platform protocol 5.3 for the segments agents receive).
 */
import type { PlainConditionTree } from './role-rights';

/**
 * Permission levels that may edit a team's layout, its segments and its default views: the levels
 * agents already trust to build charts and run any segment (agent-http-protocol 15.3). `user` and
 * `manager` members read the published layout only.
 */
export const LAYOUT_EDITOR_LEVELS = ['admin', 'developer', 'editor'] as const;

/** The widget catalogue, for display and for edit. */
export const LAYOUT_WIDGETS = [
  'text',
  'long-text',
  'markdown',
  'rich-text',
  'email',
  'url',
  'phone',
  'badge',
  'switch',
  'number',
  'currency',
  'percentage',
  'progress',
  'duration',
  'relative-time',
  'datetime',
  'colour',
  'rating',
  'image',
  'file',
  'json',
  'map-point',
  'has-many-count',
  'link',
] as const;

/** One widget name. */
export type LayoutWidgetType = (typeof LAYOUT_WIDGETS)[number];

/** Table densities. */
export const TABLE_DENSITIES = ['compact', 'comfortable', 'spacious'] as const;

/** Page sizes a table may default to. */
export const TABLE_PAGE_SIZES = [10, 15, 20, 25, 50, 100] as const;

/** Units a `duration` widget reads its number in. */
export const DURATION_UNITS = ['milliseconds', 'seconds', 'minutes', 'hours', 'days'] as const;

/** Formats of a `number` widget. */
export const NUMBER_FORMATS = ['plain', 'grouped', 'compact', 'scientific'] as const;

/** A colour: `#rrggbb`. */
export type LayoutColour = string;

/** A widget and its settings (each widget accepts its own settings only). */
export interface LayoutWidget {
  type: LayoutWidgetType;
  settings?: Record<string, unknown>;
}

/** A collection entry of the sidebar. */
export interface SidebarCollection {
  type: 'collection';
  collection: string;
  displayName?: string;
  icon?: string;
  hidden?: boolean;
}

/** A group of the sidebar and its collections, in order. */
export interface SidebarGroup {
  type: 'group';
  name: string;
  icon?: string;
  collections: SidebarCollection[];
}

/** A table of a collection: columns in order, and its defaults. */
export interface TableLayout {
  columns?: { field: string; width?: number }[];
  defaultSort?: { field: string; ascending: boolean } | null;
  pageSize?: (typeof TABLE_PAGE_SIZES)[number];
  density?: (typeof TABLE_DENSITIES)[number];
  firstSegment?: string | null;
  rowColours?: { filter: PlainConditionTree; colour: LayoutColour }[];
}

/** A titled group of fields. */
export interface LayoutSection {
  title?: string;
  fields: string[];
}

/** A tab of fields on the record page. */
export interface FieldTab {
  title: string;
  sections: LayoutSection[];
}

/** A tab listing the records of a to-many relationship (`related`: its field). */
export interface RelatedTab {
  related: string;
  title?: string;
}

/**
 * The record page: the "Details" tab's sections, then `tabs` in order (of fields, or of a
 * related collection), then `relatedTabs`; fields read-only when the record is edited.
 */
export interface RecordPageLayout {
  sections?: LayoutSection[];
  tabs?: (FieldTab | RelatedTab)[];
  relatedTabs?: string[];
  readOnlyFields?: string[];
}

/** A create or edit form: field order in sections. */
export interface FormLayout {
  sections: LayoutSection[];
  readOnlyInEdit?: string[];
}

/** What a collection looks like. */
export interface CollectionLayout {
  table?: TableLayout;
  fields?: Record<string, { display?: LayoutWidget; edit?: LayoutWidget }>;
  recordPage?: RecordPageLayout;
  forms?: { create?: FormLayout; edit?: FormLayout };
}

/** The layout document of a team in an environment. */
export interface ConsoleLayout {
  sidebar?: { items: (SidebarCollection | SidebarGroup)[] };
  collections?: Record<string, CollectionLayout>;
}

/** Where a published version came from. */
export type LayoutOrigin =
  | { kind: 'publish' }
  | { kind: 'revert'; version: number }
  | { kind: 'copy'; teamName: string; version: number };

/** A published version of a layout (`GET …/teams/{teamName}/layout`, versions, publish). */
export interface PublishedLayout {
  teamName: string;
  version: number;
  layout: ConsoleLayout;
  origin: LayoutOrigin;
  publishedAt: string;
  publishedBy: { id: number; email: string } | null;
}

/** The caller's own draft of a layout. */
export interface LayoutDraft {
  teamName: string;
  layout: ConsoleLayout | null;
  /** The published version the draft started from (null: none was published). */
  baseVersion: number | null;
  updatedAt: string | null;
}

/** A saved view: personal (`teamName` null) or shared with a team. */
export interface SavedView {
  id: number;
  name: string;
  collection: string;
  filter: PlainConditionTree | null;
  search: string | null;
  sort: { field: string; ascending: boolean } | null;
  columns: string[] | null;
  segment: string | null;
  teamName: string | null;
  owner: { id: number; email: string } | null;
  /** Teams whose default view of the collection this is. */
  defaultForTeams: string[];
  createdAt: string;
  updatedAt: string;
}

/** A segment built in the Console for a team: a named condition tree on a collection. */
export interface TeamSegment {
  id: number;
  name: string;
  collection: string;
  filter: PlainConditionTree;
  teamName: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A team segment as agents receive it in rendering permissions (platform protocol 5.3), beside
 * the SQL `segments`.
 */
export interface RenderingFilterSegment {
  id: string;
  name: string;
  filter: PlainConditionTree;
}
