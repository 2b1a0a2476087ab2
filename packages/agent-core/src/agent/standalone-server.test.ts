import { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import request from 'supertest';

import { AgentPipeline, type PipelineStages } from '../http/agent-pipeline';
import { RouteTable } from '../http/pipeline/route-table';
import { RouterSlot } from './router-slot';
import { StandaloneServer } from './standalone-server';

/**
 * The standalone server hands the pipeline node's own request and response, untouched: swapping
 * their prototypes for express's (what express's application does) made V8 promote every
 * request's objects to the old space, and the agent's memory grew by ~90 MB under load. Only the
 * origin routes (the MCP server's, written for express) run in an express application; what
 * nothing serves is a JSON:API 404.
 */
describe('StandaloneServer', () => {
  let server: StandaloneServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /**
   * A pipeline whose table routes GET /forest/fast to `fast`, with origin routes at `/origin/…`
   * served by `origin`.
   */
  async function start(
    origin: RequestHandler,
    fast: (incoming: IncomingMessage, response: ServerResponse) => void = () => {},
  ): Promise<string> {
    const routes = new RouteTable('/forest').add('GET', '/fast', async (incoming, response) =>
      fast(incoming, response),
    );
    const slot = new RouterSlot('/forest');
    // Stages that let everything through: only the dispatch is under test here.
    const stages: PipelineStages = {
      entry: { cors: () => false, accessLog: null },
      checkSession: () => {},
      ipWhitelist: null,
      readBody: async () => false,
      translateError: () => {},
    };
    const pipeline = new AgentPipeline(routes, stages);
    pipeline.addOriginRoutes((incoming) => (incoming.url ?? '').startsWith('/origin'), origin);
    slot.set(pipeline);
    server = new StandaloneServer(slot, 0, '127.0.0.1');
    await server.listen();
    return `http://127.0.0.1:${server.listeningPort}`;
  }

  it("gives the table's routes node's objects, with their own prototypes", async () => {
    const seen: string[] = [];
    const url = await start(
      (_request, response) => response.status(418).end(),
      (incoming, response) => {
        seen.push(
          String(Object.getPrototypeOf(incoming) === IncomingMessage.prototype),
          String(Object.getPrototypeOf(response) === ServerResponse.prototype),
          String('originalUrl' in incoming),
        );
        response.statusCode = 200;
        response.end('fast');
      },
    );

    const answer = await request(url).get('/forest/fast');

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('fast');
    expect(seen).toEqual(['true', 'true', 'false']);
  });

  it('hands what the origin routes claim to express, set up as express sets it up', async () => {
    const seen: unknown[] = [];
    const url = await start((incoming, response) => {
      seen.push(incoming.originalUrl, typeof response.json, incoming.query);
      response.status(202).json({ served: 'express' });
    });

    const answer = await request(url).get('/origin/slow?a[b]=1');

    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ served: 'express' });
    expect(answer.headers['x-powered-by']).toBeUndefined();
    // The application's extended query parser reads brackets as nesting.
    expect(seen).toEqual(['/origin/slow?a[b]=1', 'function', { a: { b: '1' } }]);
  });

  it('serves what the origin routes pass on through the table', async () => {
    const url = await start(
      (_request, _response, next) => next(),
      (_incoming, response) => {
        response.statusCode = 200;
        response.end('fast');
      },
    );
    const passed = await request(url).get('/origin/nothing');
    expect(passed.status).toBe(404);
    expect(passed.body).toEqual({
      errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }],
    });
    expect((await request(url).get('/forest/fast')).text).toBe('fast');
  });

  it('answers a JSON:API 404 outside the mount point, a plain-text 404 under it', async () => {
    const url = await start(express.Router());
    const answer = await request(url).get('/elsewhere');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({
      errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }],
    });
    const under = await request(url).get('/forest/nothing/here');
    expect(under.status).toBe(404);
    expect(under.text).toBe('Not Found');
  });
});
