import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import type { EnvironmentRow, ProjectRow } from '../../store/model';
import { findNoteViewer, type NoteRow, type NoteViewerRow } from '../../store/note-queries';

/**
 * Who may see a note: those who may see the record it hangs on. The platform checks what it can
 * on its own — the role's `browseEnabled` and `readEnabled` on the collection (all granted in a
 * development environment; nothing for a member without a role), as the agent does — but it
 * cannot run a team's scope (a condition tree over the agent's data) against a record. So it
 * fails closed: when every team of the member (each one a rendering they may sign in to an agent
 * with) scopes a collection, the notes of that collection are not shown to them, and a request
 * naming it gets a 403 that says why. A member who belongs to one unscoped team sees them, as
 * the agent would show them every record through that team.
 *
 * Project admins see every note and may moderate (rename, archive, delete) others' notes, which
 * is recorded in the admin logs: they set the roles and the team scopes, so hiding a record
 * from them would protect nothing. An application token acts as its creator, an admin.
 */
export interface NoteAccess {
  readonly userId: number;
  readonly admin: boolean;
  /** The list filter: `undefined` (every note), `'all'` (none) or the hidden collections. */
  readonly hidden: undefined | 'all' | readonly string[];
  /** Why the notes of a collection are hidden from the caller; undefined when they are not. */
  hiddenReason(collectionName: string | null): string | undefined;
}

function explain(
  viewer: NoteViewerRow | undefined,
  development: boolean,
  projectName: string,
  collection: string | null,
): string | undefined {
  if (!viewer) return `You are not a member of project "${projectName}".`;
  if (viewer.permissionLevel === 'admin') return undefined;
  if (viewer.teams.length === 0) {
    return `You belong to no team of project "${projectName}", so you may see no record and none of their notes.`;
  }
  if (collection === null) return 'Only project admins see the notes that name no collection.';
  if (!development) {
    if (viewer.rights === null) {
      return `You have no role in project "${projectName}", so you may not read collection "${collection}" nor its notes.`;
    }
    const rights = viewer.rights.collections?.[collection];
    if (rights?.browseEnabled === false || rights?.readEnabled === false) {
      return `Your role may not browse and read collection "${collection}", so its notes are not shown to you.`;
    }
  }
  if (viewer.teams.every((team) => team.scopes[collection] != null)) {
    return `Your team's scope on collection "${collection}" limits which of its records you may see, and the platform cannot check a record against that scope, so the notes of "${collection}" are not shown to you.`;
  }
  return undefined;
}

/** The collections a non-admin member may not see the notes of ('all' when none are visible). */
function hiddenCollections(viewer: NoteViewerRow, development: boolean): 'all' | string[] {
  if (viewer.teams.length === 0 || (!development && viewer.rights === null)) return 'all';
  const denied = development
    ? []
    : Object.entries(viewer.rights?.collections ?? {})
        .filter(([, rights]) => rights?.browseEnabled === false || rights?.readEnabled === false)
        .map(([name]) => name);
  const scopedByAll = Object.keys(viewer.teams[0]!.scopes).filter((name) =>
    viewer.teams.every((team) => team.scopes[name] != null),
  );
  return [...new Set([...denied, ...scopedByAll])];
}

/** What the caller may see and do with the notes of an environment. */
export async function noteAccess(
  knex: Knex,
  project: ProjectRow,
  environment: EnvironmentRow,
  userId: number,
): Promise<NoteAccess> {
  const viewer = await findNoteViewer(knex, project.id, userId);
  const development = environment.type === 'development';
  const admin = viewer?.permissionLevel === 'admin';
  return {
    userId,
    admin,
    hidden: !viewer ? 'all' : admin ? undefined : hiddenCollections(viewer, development),
    hiddenReason: (collection) => explain(viewer, development, project.name, collection),
  };
}

/** Throws a 403 that says why when the caller may not see the notes of this collection. */
export function assertCollectionVisible(access: NoteAccess, collection: string | null): void {
  const reason = access.hiddenReason(collection);
  if (reason !== undefined) throw new ApiError(403, 'forbidden', reason);
}

/**
 * Throws unless the caller may change or delete this note: its author, or a project admin (a
 * moderation, which the writer records in the admin logs).
 * @returns whether it is a moderation.
 */
export function assertMayChange(access: NoteAccess, note: NoteRow, verb: string): boolean {
  assertCollectionVisible(access, note.collection_name);
  if (note.user_id === access.userId) return false;
  if (access.admin) return true;
  throw new ApiError(
    403,
    'forbidden',
    `Only the author of note ${note.id} (${note.user_email}) or a project admin may ${verb} it.`,
  );
}
