import { Router } from 'express';
import { requireApplicationToken, requireSessionOr } from '../../auth';
import type { ServerContext } from '../../context';
import { jsonBody } from '../../http/body';
import { idempotency } from '../../http/idempotency';
import {
  addMessageHandler,
  createNoteHandler,
  deleteNoteHandler,
  getNoteHandler,
  listNotesHandler,
  updateNoteHandler,
} from './handlers';

export { LIST_NOTES_QUERY, CREATE_NOTE_BODY, ADD_MESSAGE_BODY, UPDATE_NOTE_BODY } from './schemas';

const BASE = '/v1/project/:projectName/environment/:environmentName/notes';

/**
 * Note routes: with an application token, reads need `notes:read` and writes `notes:write`; with
 * a session token (the console), any member of the project may read and write.
 */
export function notesRouter(ctx: ServerContext): Router {
  // The console calls the same routes with a member's session token.
  const read = requireSessionOr(ctx, requireApplicationToken(ctx, 'notes:read'));
  const write = requireSessionOr(ctx, requireApplicationToken(ctx, 'notes:write'));
  const body = jsonBody();
  return Router()
    .get(BASE, read, listNotesHandler(ctx))
    .post(BASE, write, body, idempotency(ctx), createNoteHandler(ctx))
    .get(`${BASE}/:noteId`, read, getNoteHandler(ctx))
    .patch(`${BASE}/:noteId`, write, body, updateNoteHandler(ctx))
    .delete(`${BASE}/:noteId`, write, deleteNoteHandler(ctx))
    .post(`${BASE}/:noteId/messages`, write, body, idempotency(ctx), addMessageHandler(ctx));
}
