import express from 'express';
import request from 'supertest';
import { sendJsonText } from '../src/http/json-text';

// sendJsonText answers a JSON text as express's res.send does (same status, headers, ETag, 304 and
// HEAD), but writes it as a string: these tests hold the two equal, on a long text with
// characters of 2, 3 and 4 UTF-8 bytes, where characters and bytes differ.
const long = JSON.stringify({
  data: Array.from({ length: 60 }, (_, index) => ({ id: index, name: `Zoë ✓ 😀 ${index}` })),
});
const short = '{"ok":true}';

const app = express();
app.get('/ours/:which', (req, res) =>
  sendJsonText(req, res, req.params.which === 'long' ? long : short),
);
app.get('/express/:which', (req, res) => {
  res.set('Content-Type', 'application/json').send(req.params.which === 'long' ? long : short);
});

const compared = ['content-type', 'content-length', 'etag'];

it.each(['long', 'short'])(
  'answers a %s text with the headers and body of res.send',
  async (which) => {
    const ours = await request(app).get(`/ours/${which}`);
    const theirs = await request(app).get(`/express/${which}`);
    expect(ours.status).toBe(200);
    expect(ours.text).toBe(theirs.text);
    for (const name of compared)
      expect(`${name}: ${ours.headers[name]}`).toBe(`${name}: ${theirs.headers[name]}`);
    expect(Number(ours.headers['content-length'])).toBe(
      Buffer.byteLength(which === 'long' ? long : short),
    );
  },
);

it('answers 304 to a matching If-None-Match, as res.send does', async () => {
  const { headers } = await request(app).get('/ours/long');
  const ours = await request(app).get('/ours/long').set('If-None-Match', headers['etag']!);
  const theirs = await request(app).get('/express/long').set('If-None-Match', headers['etag']!);
  expect(ours.status).toBe(304);
  expect(theirs.status).toBe(304);
  expect(ours.text).toBe('');
  for (const name of compared)
    expect(`${name}: ${ours.headers[name]}`).toBe(`${name}: ${theirs.headers[name]}`);
  const stale = await request(app).get('/ours/long').set('If-None-Match', 'W/"1-nope"');
  expect(stale.status).toBe(200);
  expect(stale.text).toBe(long);
});

it('answers If-Modified-Since as res.send does: no Last-Modified, so the full answer', async () => {
  const since = new Date(Date.now() + 86_400_000).toUTCString();
  const ours = await request(app).get('/ours/long').set('If-Modified-Since', since);
  const theirs = await request(app).get('/express/long').set('If-Modified-Since', since);
  expect(ours.status).toBe(theirs.status);
  expect(ours.status).toBe(200);
  expect(ours.text).toBe(long);
});

it('answers HEAD with the headers and no body, as res.send does', async () => {
  const ours = await request(app).head('/ours/long');
  const theirs = await request(app).head('/express/long');
  expect(ours.status).toBe(200);
  expect(ours.text ?? '').toBe('');
  for (const name of compared)
    expect(`${name}: ${ours.headers[name]}`).toBe(`${name}: ${theirs.headers[name]}`);
});
