/**
 * The Console's own addresses of a workspace's data, below its base (`useDataBase` in data.ts:
 * `/:project/:environment/data`): a collection's list or one of its pages, a record, a record's
 * tab. Every name and id is one path segment (encoded), so an id holding `/`, `?` or `#` still
 * names one record.
 */

/** `/{project}/{environment}`: the base of a workspace's pages (approvals, notes, settings…). */
export function workspaceBase(project: string, environment: string): string {
  return `/${encodeURIComponent(project)}/${encodeURIComponent(environment)}`;
}

/** `/{project}/{environment}/data`: the base of a workspace's data pages. */
export function dataBase(project: string, environment: string): string {
  return `${workspaceBase(project, environment)}/data`;
}

/** `{base}/{collection}`, or `{base}/{collection}/{page}` (the new-record form, the CSV import). */
export function collectionPath(base: string, collection: string, page?: 'new' | 'import'): string {
  const list = `${base}/${encodeURIComponent(collection)}`;
  return page ? `${list}/${page}` : list;
}

/** `{base}/{collection}/{id}`, or with `?tab={tab}` to open one tab of the record page. */
export function recordPath(base: string, collection: string, id: string, tab?: string): string {
  const record = `${collectionPath(base, collection)}/${encodeURIComponent(id)}`;
  return tab ? `${record}?tab=${encodeURIComponent(tab)}` : record;
}

/** `{base}/{collection}/{id}/edit`: the record's edit form. */
export function recordEditPath(base: string, collection: string, id: string): string {
  return `${recordPath(base, collection, id)}/edit`;
}

/** `{base}/{collection}/new?from={id}`: the create form prefilled with a copy of a record. */
export function duplicatePath(base: string, collection: string, id: string): string {
  return `${collectionPath(base, collection, 'new')}?from=${encodeURIComponent(id)}`;
}
