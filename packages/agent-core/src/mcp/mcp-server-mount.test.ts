import type { RequestHandler } from 'express';

import { HOT_ROUTES, type RouterWithHotRoutes } from '../http/create-agent-router';
import type { HotRoutes } from '../http/hot-routes';
import type { AgentServices } from '../platform/agent-services';
import { resolveMcpOptions } from './mcp-options';
import { McpServerMount } from './mcp-server-mount';

/**
 * With the MCP server mounted, lists, counts and gets must still be served by the router's hot
 * routes on the standalone server: without them every request went through express's
 * application, which cost ~30% more CPU per request and let the agent's memory grow past 200 MB
 * under load.
 */
describe('McpServerMount.wrap', () => {
  const hot: HotRoutes = () => false;
  const router: RouterWithHotRoutes = (_request, _response, next) => next();
  router[HOT_ROUTES] = hot;
  const services = (prefix: string) => ({ options: { prefix } }) as unknown as AgentServices;
  const hotRoutesOf = (handler: RequestHandler) => (handler as RouterWithHotRoutes)[HOT_ROUTES];

  it.each(['/forest', '/forest/', 'admin'])(
    'keeps the hot routes of a router under the prefix %s',
    (prefix) => {
      const mount = new McpServerMount(resolveMcpOptions({}));
      expect(hotRoutesOf(mount.wrap(router, services(prefix)))).toBe(hot);
    },
  );

  it.each(['/', ''])(
    'drops them for a router at the root (%s), whose paths the MCP routes share',
    (prefix) => {
      const mount = new McpServerMount(resolveMcpOptions({}));
      expect(hotRoutesOf(mount.wrap(router, services(prefix)))).toBeUndefined();
    },
  );
});
