import { useTestDatabase } from '@canopy/test-databases';
import express from 'express';
import request from 'supertest';
import type { AdminApiServer } from '../src';
import { seed, startTestServer, type Seed } from './helpers/test-server';

// Issue 34: one request pipeline. The public API's hottest read (the activity-log list with an
// application token) is served by the same express pipeline as every other route: its request
// log, security headers, ETag and error answer come from the same code, and nothing replaces
// express's own request handling.
const db = useTestDatabase('postgres');
let server: AdminApiServer;
let s: Seed;

beforeAll(async () => {
  server = await startTestServer(db());
  s = await seed(server, 'Pipeline Shop');
});
afterAll(async () => {
  await server?.close();
});

const list = () => `/v1/project/Pipeline%20Shop/environment/Production/activity-logs`;
const adminLogs = () => `/v1/project/Pipeline%20Shop/admin-logs`;

/** The headers the pipeline sets on every answer, whatever the route. */
const PIPELINE_HEADERS = [
  'request-id',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'cross-origin-opener-policy',
  'referrer-policy',
];

it("leaves express's request handling as express defines it", () => {
  const handle = (target: object) => (target as { handle?: unknown }).handle;
  expect(handle(server.app)).toBe(handle(express.application));
  expect(handle(server.app)).toBeInstanceOf(Function);
});

it('gives the list the same pipeline headers, ETag and 304 as another route', async () => {
  const listed = await request(server.app)
    .get(`${list()}?limit=5`)
    .set('Authorization', `Bearer ${s.tokens['activity_logs:read']}`)
    .set('Request-Id', 'given-id.1');
  const other = await request(server.app)
    .get(adminLogs())
    .set('Authorization', `Bearer ${s.tokens['admin_logs:read']}`);
  expect(listed.status).toBe(200);
  expect(other.status).toBe(200);
  expect(listed.headers['request-id']).toBe('given-id.1');
  for (const name of PIPELINE_HEADERS) {
    expect(`${name}: ${listed.headers[name] !== undefined}`).toBe(`${name}: true`);
    if (name !== 'request-id') expect(listed.headers[name]).toBe(other.headers[name]);
  }
  expect(listed.headers['etag']).toMatch(/^W\/"[0-9a-f]+-/);
  expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');

  const again = await request(server.app)
    .get(`${list()}?limit=5`)
    .set('Authorization', `Bearer ${s.tokens['activity_logs:read']}`)
    .set('If-None-Match', listed.headers['etag']!);
  expect(again.status).toBe(304);
});

it('answers a bad list query through the one error handler', async () => {
  const bad = await request(server.app)
    .get(`${list()}?limit=0`)
    .set('Authorization', `Bearer ${s.tokens['activity_logs:read']}`);
  const badOther = await request(server.app)
    .get(`${adminLogs()}?limit=0`)
    .set('Authorization', `Bearer ${s.tokens['admin_logs:read']}`);
  expect(bad.status).toBe(400);
  expect(badOther.status).toBe(400);
  expect(Object.keys(bad.body).sort()).toEqual(Object.keys(badOther.body).sort());
  for (const name of PIPELINE_HEADERS) expect(bad.headers[name]).toBeDefined();
});
