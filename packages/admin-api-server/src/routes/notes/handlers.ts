import type { RequestHandler } from 'express';
import sanitizeHtml from 'sanitize-html';
import { invalidBody } from '../../errors';
import { required, type ServerContext } from '../../context';
import { decodeIdCursor, encodeIdCursor } from '../../store/cursor';
import { resolveUserTeam } from '../../store/model';
import {
  findNote,
  findNoteMessage,
  findNoteRow,
  listNotes,
  type NoteRow,
} from '../../store/note-queries';
import { resolveMentions } from '../../store/inbox';
import { addNoteMessage, createNote, deleteNote, updateNote } from '../../store/note-writer';
import { dateFilterOf } from '../../validation/query-schemas';
import { echoParameters } from '../echo-parameters';
import { assertCollectionVisible, assertMayChange, noteAccess, type NoteAccess } from './access';
import { expectedVersion, noteIdParam, noteNotFound, staleWrite } from './preconditions';
import {
  parseAddMessageBody,
  parseCreateNoteBody,
  parseListNotesQuery,
  parseNoQuery,
  parseUpdateNoteBody,
} from './schemas';
import { noteEtag, noteItem, noteMessageItem } from './serialize';

/** Sanitizes message HTML with sanitize-html's defaults (no scripts, styles, handlers, `javascript:`). */
export function sanitizeMessage(content: string, property: string): string {
  const clean = sanitizeHtml(content).trim();
  if (clean === '') throw invalidBody(property, 'has no content left once unsafe HTML is removed');
  return clean;
}

async function placeOf(
  ctx: ServerContext,
  req: Parameters<RequestHandler>[0],
  query: 'list' | 'none' = 'none',
) {
  if (query === 'none') parseNoQuery(req.query);
  const project = required(req.project, 'project');
  const environment = required(req.environment, 'environment');
  const auth = required(req.platformAuth, 'auth');
  return {
    project,
    environment,
    author: { projectId: project.id, environmentId: environment.id, userId: auth.userId },
    access: await noteAccess(ctx.knex, project, environment, auth.userId),
  };
}

/** The note of `:noteId`, once the caller may see it (404 if unknown, 403 if hidden). */
async function visibleNote(
  ctx: ServerContext,
  environment: { id: number; name: string },
  access: NoteAccess,
  noteId: number,
): Promise<NoteRow> {
  const row = await findNoteRow(ctx.knex, environment.id, noteId);
  if (!row) throw noteNotFound(noteId, environment.name);
  assertCollectionVisible(access, row.collection_name);
  return row;
}

/** `GET …/notes`: highest id first. */
export function listNotesHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { project, environment, access } = await placeOf(ctx, req, 'list');
    const query = parseListNotesQuery(req.query);
    if (query.collectionName !== undefined) assertCollectionVisible(access, query.collectionName);
    const limit = query.limit ?? 10;
    const { rows, messages, hasMore } = await listNotes(
      ctx.knex,
      {
        projectId: project.id,
        environmentId: environment.id,
        userEmail: query.userEmail,
        userId: query.userId,
        teamName: query.teamName,
        collectionName: query.collectionName,
        recordId: query.recordId,
        createdAt: dateFilterOf(query, 'createdAt'),
        updatedAt: dateFilterOf(query, 'updatedAt'),
        archivedAt: dateFilterOf(query, 'archivedAt'),
        beforeId: query.cursor === undefined ? undefined : decodeIdCursor(query.cursor),
        hidden: access.hidden,
      },
      limit,
    );
    const last = rows[rows.length - 1];
    res.json({
      hasMore,
      data: rows.map((row) => noteItem(row, messages.get(row.id) ?? [], environment.name)),
      parameters: echoParameters(
        { projectName: project.name, environmentName: environment.name },
        { ...query, limit },
      ),
      nextCursor: hasMore && last ? encodeIdCursor(last.id) : null,
    });
  };
}

async function sendNote(
  ctx: ServerContext,
  res: Parameters<RequestHandler>[1],
  environment: { id: number; name: string },
  noteId: number,
  status: number,
): Promise<void> {
  const found = await findNote(ctx.knex, environment.id, noteId);
  if (!found) throw noteNotFound(noteId, environment.name);
  res
    .status(status)
    .set('ETag', noteEtag(noteId, found.row.version))
    .json(noteItem(found.row, found.messages, environment.name));
}

/** `GET …/notes/{noteId}` with its ETag. */
export function getNoteHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { environment, access } = await placeOf(ctx, req);
    const noteId = noteIdParam(req);
    await visibleNote(ctx, environment, access, noteId);
    await sendNote(ctx, res, environment, noteId, 200);
  };
}

/** `POST …/notes`: the note, its first message and a `createNote` activity log. */
export function createNoteHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { project, environment, author, access } = await placeOf(ctx, req);
    const body = parseCreateNoteBody(req.body);
    assertCollectionVisible(access, body.collectionName);
    const content = sanitizeMessage(body.message, 'message');
    const mentions = await resolveMentions(ctx.knex, project.id, content, 'message');
    const team = await resolveUserTeam(ctx.knex, project.id, author.userId, body.teamName);
    if (!team) {
      throw invalidBody(
        'teamName',
        `must be one of the author's teams in project "${project.name}"`,
      );
    }
    const noteId = await createNote(ctx.knex, author, {
      teamId: team.id,
      title: body.title,
      recordId: body.recordId,
      collectionName: body.collectionName,
      content,
      mentions,
    });
    res.location(`${req.baseUrl}${req.path.replace(/\/$/, '')}/${noteId}`);
    await sendNote(ctx, res, environment, noteId, 201);
  };
}

/** `POST …/notes/{noteId}/messages`: a message and a `createMessage` activity log. */
export function addMessageHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { project, environment, author, access } = await placeOf(ctx, req);
    const noteId = noteIdParam(req);
    await visibleNote(ctx, environment, access, noteId);
    const body = parseAddMessageBody(req.body);
    const content = sanitizeMessage(body.content, 'content');
    const mentions = await resolveMentions(ctx.knex, project.id, content, 'content');
    const added = await addNoteMessage(ctx.knex, author, noteId, content, mentions);
    if (!added) throw noteNotFound(noteId, environment.name);
    const message = await findNoteMessage(ctx.knex, added.messageId);
    if (!message) throw noteNotFound(noteId, environment.name);
    res.status(201).set('ETag', noteEtag(noteId, added.version)).json(noteMessageItem(message));
  };
}

/** `PATCH …/notes/{noteId}`: title and archive state, guarded by `If-Match`. */
export function updateNoteHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { project, environment, author, access } = await placeOf(ctx, req);
    const noteId = noteIdParam(req);
    const version = expectedVersion(req, noteId);
    const changes = parseUpdateNoteBody(req.body);
    const note = await visibleNote(ctx, environment, access, noteId);
    const moderation = assertMayChange(access, note, 'change')
      ? { projectId: project.id, environmentName: environment.name, userId: access.userId }
      : undefined;
    const outcome = await updateNote(
      ctx.knex,
      environment.id,
      noteId,
      changes,
      version,
      moderation,
      author,
    );
    if (outcome === 'not_found') throw noteNotFound(noteId, environment.name);
    if (outcome === 'stale') throw staleWrite(noteId);
    await sendNote(ctx, res, environment, noteId, 200);
  };
}

/** `DELETE …/notes/{noteId}`: guarded by `If-Match`; records `deleteNote`. */
export function deleteNoteHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const { project, environment, author, access } = await placeOf(ctx, req);
    const noteId = noteIdParam(req);
    const version = expectedVersion(req, noteId);
    const note = await visibleNote(ctx, environment, access, noteId);
    const moderation = assertMayChange(access, note, 'delete')
      ? { projectId: project.id, environmentName: environment.name, userId: access.userId }
      : undefined;
    const outcome = await deleteNote(ctx.knex, author, noteId, version, moderation);
    if (outcome === 'not_found') throw noteNotFound(noteId, environment.name);
    if (outcome === 'stale') throw staleWrite(noteId);
    res.status(204).end();
  };
}
