import { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import request from 'supertest';

import { type FastPath, StandaloneServer } from './standalone-server';

/**
 * The standalone server hands the fast path node's own request and response, untouched: swapping
 * their prototypes for express's (what express's application does) made V8 promote every
 * request's objects to the old space, and the agent's memory grew by ~90 MB under load.
 */
describe('StandaloneServer', () => {
  let server: StandaloneServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(handler: RequestHandler, fastPath: FastPath | null): Promise<string> {
    server = new StandaloneServer(handler, 0, '127.0.0.1', fastPath);
    await server.listen();
    return `http://127.0.0.1:${server.listeningPort}`;
  }

  it("gives the fast path node's objects, with their own prototypes", async () => {
    const seen: string[] = [];
    const url = await start(
      (_request, response) => response.status(418).end(),
      (request, response) => {
        if (request.url !== '/fast') return false;
        seen.push(
          String(Object.getPrototypeOf(request) === IncomingMessage.prototype),
          String(Object.getPrototypeOf(response) === ServerResponse.prototype),
          String('originalUrl' in request),
        );
        response.statusCode = 200;
        response.end('fast');
        return true;
      },
    );

    const answer = await request(url).get('/fast');

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('fast');
    expect(seen).toEqual(['true', 'true', 'false']);
  });

  it('hands what the fast path declines to express, set up as express sets it up', async () => {
    const seen: unknown[] = [];
    const url = await start(
      (incoming, response) => {
        seen.push(incoming.originalUrl, typeof response.json, incoming.query);
        response.status(202).json({ served: 'express' });
      },
      () => false,
    );

    const answer = await request(url).get('/slow?a[b]=1');

    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ served: 'express' });
    expect(answer.headers['x-powered-by']).toBeUndefined();
    // The application's extended query parser reads brackets as nesting.
    expect(seen).toEqual(['/slow?a[b]=1', 'function', { a: { b: '1' } }]);
  });

  it('serves everything through express without a fast path', async () => {
    const url = await start((_request, response) => response.status(204).end(), null);
    expect((await request(url).get('/anything')).status).toBe(204);
  });
});
