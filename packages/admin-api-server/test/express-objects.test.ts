import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { expressServerOptions } from '../src/http/express-objects';

// V8's own test of an object's mode: fast (fixed shape) or dictionary (a hash table).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (
  o: object,
) => boolean;

// Node's server builds each request's objects with the express application's prototypes, so
// express's Object.setPrototypeOf changes nothing (src/http/express-objects.ts), and express's
// request and response API works on them as on node's own.
const app = express();
app.get('/echo/:name', (req, res) => {
  res
    .status(201)
    .set('X-Seen', req.get('x-given') ?? '')
    .json({
      name: req.params.name,
      query: req.query,
      ip: req.ip,
      fresh: req.fresh,
    });
});
app.post('/stream', (req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => res.type('text').send(body.toUpperCase()));
});

// The pipeline's own properties, set as src/logging/logger.ts and src/auth set them, on a route in
// a router of its own, as the public API's routes are.
const shapes: boolean[] = [];
const responseShapes: boolean[] = [];
app.use((req, _res, next) => {
  req.requestId = 'id';
  req.log = undefined;
  next();
});
app.use(
  express
    .Router()
    .get('/v1/project/:projectName/environment/:environmentName/things', (req, res) => {
      req.project = { id: 1 } as never;
      req.platformAuth = { kind: 'application', userId: 1, scopes: [], sso: false };
      req.environment = { id: 2 } as never;
      shapes.push(hasFastProperties(req));
      res.setHeader('X-Seen', '1');
      responseShapes.push(hasFastProperties(res));
      res.json(req.params);
    }),
);

let server: Server;
let origin: string;
const born: boolean[] = [];
beforeAll(async () => {
  server = createServer(expressServerOptions(app), app);
  server.prependListener('request', (req, res) => {
    born.push(
      Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('builds requests and responses already carrying the application prototypes', async () => {
  born.length = 0;
  const answer = await fetch(`${origin}/echo/ada?x=1&y=2`, { headers: { 'X-Given': 'yes' } });
  expect(answer.status).toBe(201);
  expect(answer.headers.get('x-seen')).toBe('yes');
  expect(await answer.json()).toEqual({
    name: 'ada',
    query: { x: '1', y: '2' },
    ip: '127.0.0.1',
    fresh: false,
  });
  expect(born).toEqual([true]);
});

it('keeps them node objects: streaming bodies, instanceof, unknown routes', async () => {
  const answer = await fetch(`${origin}/stream`, { method: 'POST', body: 'hello' });
  expect(await answer.text()).toBe('HELLO');
  const missing = await fetch(`${origin}/nope`);
  expect(missing.status).toBe(404);
  const [req, res] = await new Promise<[unknown, unknown]>((resolve) => {
    server.once('request', (request, response) => resolve([request, response]));
    void fetch(`${origin}/echo/x`);
  });
  expect(req).toBeInstanceOf(IncomingMessage);
  expect(res).toBeInstanceOf(ServerResponse);
});

it("keeps a request and its response in V8's fast mode through express and the pipeline", async () => {
  shapes.length = 0;
  responseShapes.length = 0;
  for (let round = 0; round < 3; round += 1) {
    const answer = await fetch(`${origin}/v1/project/p/environment/e/things?x=1`);
    expect(await answer.json()).toEqual({ projectName: 'p', environmentName: 'e' });
  }
  expect(shapes).toEqual([true, true, true]);
  expect(responseShapes).toEqual([true, true, true]);
});
