import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';

import { RouteTable, type TableRouteHandler } from './route-table';

const list: TableRouteHandler = async () => {};
const count: TableRouteHandler = async () => {};
const get: TableRouteHandler = async () => {};
const create: TableRouteHandler = async () => {};
const history: TableRouteHandler = async () => {};
const chart: TableRouteHandler = async () => {};
const health: TableRouteHandler = async () => {};

function table(mountPath = '/forest'): RouteTable {
  return new RouteTable(mountPath)
    .add('GET', '/', health, { public: true })
    .add('GET', '/_charts/:chart', chart)
    .add('GET', '/:collection/count', count)
    .add('GET', '/:collection/:id', get)
    .add('GET', '/:collection', list)
    .add('POST', '/:collection', create)
    .addFeature('GET', '/_audit-trail/correlations', history);
}

function match(routes: RouteTable, url: string, method = 'GET') {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  const found = routes.match(request);
  return (
    found && {
      handler: found.handler,
      params: found.params,
      public: found.public,
      error: found.error?.message,
    }
  );
}

describe('RouteTable', () => {
  it.each([
    ['/forest/orders', list, ['orders']],
    ['/forest/orders/?page[size]=2', list, ['orders']],
    ['/forest/orders#x', list, ['orders']],
    ['/forest/orders/count', count, ['orders']],
    ['/forest/orders/count/', count, ['orders']],
    ['/forest/orders/42?timezone=UTC', get, ['orders', '42']],
    ['/forest/my%20orders/a%2Fb', get, ['my orders', 'a/b']],
    ['/forest/_audit-trail/correlations', history, []],
    ['/forest/_charts/mrr', chart, ['mrr']],
  ])('matches %s', (url, handler, params) => {
    expect(match(table(), url)).toEqual({ handler, params, public: false, error: undefined });
  });

  it.each(['/forest', '/forest/', '/forest?x=1', '/forest//'])(
    'serves the public root route at %s',
    (url) => {
      expect(match(table(), url)).toEqual({
        handler: health,
        params: [],
        public: true,
        error: undefined,
      });
    },
  );

  it('matches in order, features ahead of the routes added before them', () => {
    expect(match(table(), '/forest/_audit-trail/x')?.handler).toBe(get);
  });

  it.each([
    '/forest//orders',
    '/forest/orders//',
    '/forest/orders/1/2',
    '/forest/a/b/c/d/e/f/g/h/i',
  ])('matches no route for %s under the mount point', (url) => {
    expect(match(table(), url)).toEqual({
      handler: null,
      params: [],
      public: false,
      error: undefined,
    });
  });

  it.each(['/Forest/orders', '/forestry/orders', '/elsewhere/orders'])(
    'leaves %s, outside the mount point, alone',
    (url) => {
      expect(match(table(), url)).toBeNull();
    },
  );

  it('answers an undecodable parameter with the 400 of the first route it fits', () => {
    expect(match(table(), '/forest/orders/%E0')).toEqual({
      handler: null,
      params: [],
      public: false,
      error: "Failed to decode param '%E0'",
    });
    // The GET route fits first, whatever the method.
    expect(match(table(), '/forest/orders%zz', 'POST')?.error).toBe(
      "Failed to decode param 'orders%zz'",
    );
  });

  it('matches the method exactly, HEAD by the GET routes', () => {
    expect(match(table(), '/forest/orders', 'POST')?.handler).toBe(create);
    expect(match(table(), '/forest/orders', 'PUT')?.handler).toBeNull();
    expect(match(table(), '/forest/orders', 'HEAD')?.handler).toBe(list);
    expect(match(table(), '/forest/orders', 'OPTIONS')?.handler).toBeNull();
  });

  it('serves every path at the root when mounted at /', () => {
    expect(match(table('/'), '/orders/count')?.params).toEqual(['orders']);
    expect(match(table('/'), '/')?.handler).toBe(health);
  });
});
