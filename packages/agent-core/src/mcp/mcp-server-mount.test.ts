import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { AgentPipeline, type PipelineStages } from '../http/agent-pipeline';
import { RouteTable } from '../http/pipeline/route-table';
import type { AgentServices } from '../platform/agent-services';
import { resolveMcpOptions } from './mcp-options';
import { McpServerMount } from './mcp-server-mount';

/**
 * With the MCP server mounted, lists, counts and gets must still be served by the pipeline's
 * route table, whatever the prefix: when they went through express's application, every
 * request cost ~30% more CPU and the agent's memory grew past 200 MB under load. The MCP and
 * OAuth paths go to express, where the MCP routes are.
 */
describe('McpServerMount.attach', () => {
  const stages: PipelineStages = {
    entry: { cors: () => false, accessLog: null },
    checkSession: () => {},
    ipWhitelist: null,
    readBody: async () => false,
    translateError: () => {},
  };

  /** Where GET `url` goes in a pipeline at `prefix` with the MCP server attached. */
  function route(prefix: string, url: string): string {
    let served = 'nothing';
    const routes = new RouteTable(prefix).add('GET', '/:collection', async () => {
      served = 'table';
    });
    const pipeline = new AgentPipeline(routes, stages);
    const mount = new McpServerMount(resolveMcpOptions({}));
    mount.attach(pipeline, { options: { prefix } } as unknown as AgentServices);
    const incoming = new IncomingMessage(new Socket());
    incoming.method = 'GET';
    incoming.url = url;
    pipeline.serve(
      incoming,
      new ServerResponse(incoming),
      () => {},
      () => {
        served = 'express';
      },
    );
    return served;
  }

  it.each([
    ['/forest', '/forest/orders'],
    ['/', '/orders'],
    ['/admin', '/admin/orders'],
  ])('keeps the table serving lists under the prefix %s', (prefix, url) => {
    expect(route(prefix, url)).toBe('table');
  });

  it.each([
    ['/forest', '/mcp'],
    ['/', '/mcp'],
    ['/', '/MCP'],
    ['/', '/oauth/token'],
    ['/', '/.well-known/oauth-authorization-server'],
  ])('sends the MCP paths to express (prefix %s, %s)', (prefix, url) => {
    expect(route(prefix, url)).toBe('express');
  });
});
