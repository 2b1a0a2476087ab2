import request from 'supertest';
import { addProjectMember, createEnvironment, createProject, createUser } from '../src';
import { consoleSession, openConsoleStream } from './helpers/console-stream';
import { startEmbeddedServer } from './helpers/embedded-server';

// The embedded store has one connection and no LISTEN: a note with a mention (note, message,
// activity log, inbox item and two events in one transaction) must use the transaction's own
// connection, and the stream reads the events by polling.
it('streams a mention and fills the inbox on the embedded store', async () => {
  const { server, close } = await startEmbeddedServer('canopy-live-');
  try {
    const origin = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
    const project = await createProject(server.knex, { name: 'Embedded', teams: ['A'] });
    await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
    const author = await createUser(server.knex, { email: 'author@example.com' });
    const reader = await createUser(server.knex, { email: 'reader@example.com' });
    for (const user of [author, reader]) {
      await addProjectMember(server.knex, {
        projectId: project.id,
        userId: user.id,
        permissionLevel: 'admin',
        teamNames: ['A'],
      });
    }
    const stream = await openConsoleStream(server, origin, reader.id, {
      project: 'Embedded',
      environment: 'Production',
    });
    try {
      await stream.waitFor((e) => e.event === 'ready');
      const created = await request(server.app)
        .post('/v1/project/Embedded/environment/Production/notes')
        .set('authorization', `Bearer ${consoleSession(author.id)}`)
        .send({
          title: 'T',
          recordId: '1',
          collectionName: 'orders',
          message: '<p>@reader@example.com</p>',
        });
      expect(created.status).toBe(201);
      const mention = await stream.waitFor((e) => e.event === 'mention');
      expect(mention.data).toMatchObject({ noteId: created.body.id, byUserId: author.id });
      await stream.waitFor((e) => e.event === 'note-created');
      const count = await request(server.app)
        .get('/v1/project/Embedded/environment/Production/inbox/unread-count')
        .set('authorization', `Bearer ${consoleSession(reader.id)}`);
      expect(count.body).toEqual({ unreadCount: 1 });
    } finally {
      stream.close();
    }
  } finally {
    await close();
  }
}, 120_000);
