import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';

import { EXPRESS_ROUTES, RouteTable, type TableRouteHandler } from './route-table';

const list: TableRouteHandler = async () => {};
const count: TableRouteHandler = async () => {};
const get: TableRouteHandler = async () => {};
const history: TableRouteHandler = async () => {};

function table(mountPath = '/forest'): RouteTable {
  return new RouteTable(mountPath)
    .add('GET', '/_charts/:chart', EXPRESS_ROUTES)
    .add('GET', '/:collection/count', count)
    .add('GET', '/:collection/:id', get)
    .add('GET', '/:collection', list)
    .addFeature('GET', '/_audit-trail/correlations', history);
}

function match(routes: RouteTable, url: string, method = 'GET') {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  const found = routes.match(request);
  return found && { target: found.target, params: found.params };
}

describe('RouteTable', () => {
  it.each([
    ['/forest/orders', list, ['orders']],
    ['/forest/orders/?page[size]=2', list, ['orders']],
    ['/forest/orders/count', count, ['orders']],
    ['/forest/orders/count/', count, ['orders']],
    ['/forest/orders/42?timezone=UTC', get, ['orders', '42']],
    ['/forest/my%20orders/a%2Fb', get, ['my orders', 'a/b']],
    ['/forest/_audit-trail/correlations', history, []],
    ['/forest/_charts/mrr', EXPRESS_ROUTES, ['mrr']],
  ])('matches %s', (url, target, params) => {
    expect(match(table(), url)).toEqual({ target, params });
  });

  it('matches in order, features ahead of the routes added before them', () => {
    expect(match(table(), '/forest/_audit-trail/x')?.target).toBe(get);
  });

  it.each([
    '/forest',
    '/forest/',
    '/Forest/orders',
    '/forestry/orders',
    '/elsewhere/orders',
    '/forest//orders',
    '/forest/orders//',
    '/forest/orders/1/2',
    '/forest/orders%zz',
    '/forest/orders/%E0',
    '/forest/or ders',
    '/forest/orders#x',
  ])('leaves %s to express', (url) => {
    expect(match(table(), url)).toBeNull();
  });

  it('matches the method exactly', () => {
    expect(match(table(), '/forest/orders', 'POST')).toBeNull();
    expect(match(table(), '/forest/orders', 'HEAD')).toBeNull();
  });

  it('serves every path at the root when mounted at /', () => {
    expect(match(table('/'), '/orders/count')).toEqual({ target: count, params: ['orders'] });
    expect(match(table('/'), '/')).toBeNull();
  });
});
