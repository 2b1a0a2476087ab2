/**
 * The list a record was opened from, kept in this tab's session storage: the record page's
 * previous/next buttons walk it, and its back link returns to the same view.
 */
export interface ListContext {
  ids: string[];
  search: string;
  label: string;
}

const key = (collection: string) => `canopy.list.${collection}`;

export function saveListContext(collection: string, context: ListContext): void {
  sessionStorage.setItem(key(collection), JSON.stringify(context));
}

export function readListContext(collection: string): (ListContext & { back?: string }) | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(key(collection)) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}
