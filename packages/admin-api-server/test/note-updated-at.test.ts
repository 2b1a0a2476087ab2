import { useTestDatabase } from '@canopy/test-databases';
import type { AdminApiServer } from '../src';
import { addNoteMessage, createNote, type NoteAuthor } from '../src/store/note-writer';
import { seed, startTestServer } from './helpers/test-server';

// Finding 5 of issue 17: a note's updatedAt could be older than its newest message when a message
// whose transaction started earlier got the note's row lock after another one had committed.

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let author: NoteAuthor;
let teamId: number;

beforeAll(async () => {
  server = await startTestServer(db());
  const s = await seed(server);
  author = { projectId: s.project.id, environmentId: s.production.id, userId: s.admin.id };
  teamId = (await server.knex('teams').where({ project_id: s.project.id }).first('id')).id;
});
afterAll(() => server.close());

async function newestMessageVersusNote(noteId: number) {
  const note = await server.knex('notes').where({ id: noteId }).first('updated_at');
  const newest = await server.knex('note_messages').where({ note_id: noteId }).max('created_at');
  return { updatedAt: note.updated_at as Date, newestMessage: newest[0]!.max as Date };
}

it('keeps updatedAt at or after the newest message when an older transaction writes last', async () => {
  const knex = server.knex;
  const noteId = await createNote(knex, author, {
    teamId,
    title: 'race',
    recordId: '1',
    collectionName: 'orders',
    content: 'first',
  });
  await knex.transaction(async (early) => {
    await early.raw('select 1'); // this transaction's now() is fixed from here
    await new Promise((resolve) => setTimeout(resolve, 30));
    await addNoteMessage(knex, author, noteId, 'committed first, started later');
    await addNoteMessage(early, author, noteId, 'started first, committed later');
  });
  const { updatedAt, newestMessage } = await newestMessageVersusNote(noteId);
  expect(updatedAt.getTime()).toBeGreaterThanOrEqual(newestMessage.getTime());
});

it('keeps updatedAt at or after the newest message under concurrent posts', async () => {
  const noteId = await createNote(server.knex, author, {
    teamId,
    title: 'concurrent',
    recordId: '2',
    collectionName: 'orders',
    content: 'first',
  });
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => addNoteMessage(server.knex, author, noteId, `m${i}`)),
  );
  const { updatedAt, newestMessage } = await newestMessageVersusNote(noteId);
  expect(updatedAt.getTime()).toBeGreaterThanOrEqual(newestMessage.getTime());
  const note = await server.knex('notes').where({ id: noteId }).first('version');
  expect(note.version).toBe(21);
});
