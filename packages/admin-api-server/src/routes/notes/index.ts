import { Router } from 'express';
import { requireApplicationToken } from '../../auth';
import type { ServerContext } from '../../http/context';
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

/** Note routes: reads need `notes:read`, writes `notes:write`. */
export function notesRouter(ctx: ServerContext): Router {
  const read = requireApplicationToken(ctx, 'notes:read');
  const write = requireApplicationToken(ctx, 'notes:write');
  const body = jsonBody();
  return Router()
    .get(BASE, read, listNotesHandler(ctx))
    .post(BASE, write, body, idempotency(ctx), createNoteHandler(ctx))
    .get(`${BASE}/:noteId`, read, getNoteHandler(ctx))
    .patch(`${BASE}/:noteId`, write, body, updateNoteHandler(ctx))
    .delete(`${BASE}/:noteId`, write, deleteNoteHandler(ctx))
    .post(`${BASE}/:noteId/messages`, write, body, idempotency(ctx), addMessageHandler(ctx));
}
