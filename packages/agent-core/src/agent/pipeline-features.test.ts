import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

import type { AiProviderDefinition } from '../ai/ai-provider';
import { addAiProxyRoute } from '../ai/ai-proxy-router';
import type { AuditRecorder } from '../audit-trail/audit-recorder';
import { addAuditTrailRoutes } from '../http/audit-trail/audit-routes';
import type { ToExpress } from '../http/agent-pipeline';
import { createAgentPipeline } from '../http/create-agent-router';
import { bearer, createTestServices } from '../http/test-fixtures/shop-services';
import { resolveMcpOptions } from '../mcp/mcp-options';
import { McpServerMount } from '../mcp/mcp-server-mount';

/**
 * Enabling a feature never turns another off: with the audit trail, the AI proxy and the MCP
 * server all added to one pipeline, lists, counts and gets are still served by its route table on
 * node's objects (never through express), the AI route is served too, and the MCP paths go to
 * express, where the MCP routes are.
 */
describe('a pipeline with every feature', () => {
  let server: Server;
  let url: string;
  const viaExpress: string[] = [];

  beforeAll(async () => {
    const services = createTestServices();
    const pipeline = createAgentPipeline(services);
    const provider = {
      name: 'assistant',
      provider: 'openai',
      model: 'test-model',
      complete: async () => ({ id: 'done', object: 'chat.completion', choices: [] }),
    } as unknown as AiProviderDefinition;
    addAuditTrailRoutes(pipeline.routes, services, {} as AuditRecorder, services.dataSource);
    addAiProxyRoute(pipeline.routes, services, provider);
    new McpServerMount(resolveMcpOptions({})).attach(pipeline, services);
    const app = express();
    app.use(pipeline.express);
    const runExpress = app as unknown as ToExpress;
    server = createServer((request, response) =>
      pipeline.serve(
        request,
        response,
        () => pipeline.answerUnserved(request, response),
        (incoming, outgoing, next) => {
          viaExpress.push(incoming.url ?? '');
          runExpress(incoming, outgoing, next);
        },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    viaExpress.length = 0;
  });

  const get = (path: string, token: string | null = bearer()) =>
    fetch(`${url}${path}`, { headers: token ? { authorization: token } : {} });

  it.each([
    '/forest/orders?timezone=UTC',
    '/forest/orders/count?timezone=UTC',
    '/forest/orders/101?timezone=UTC',
  ])('serves GET %s from the table', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(viaExpress).toEqual([]);
  });

  it('serves the AI route from the table, after the session check', async () => {
    const ask = (token: string | null) =>
      fetch(`${url}/forest/_internal/ai-proxy/ai-query`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: token } : {}),
        },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] }),
      });
    expect((await ask(null)).status).toBe(401);
    const answer = await ask(bearer());
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ id: 'done', object: 'chat.completion', choices: [] });
    expect(viaExpress).toEqual([]);
  });

  it('checks the session of the audit-trail routes in the table', async () => {
    const response = await get('/forest/_audit-trail/correlations', null);
    expect(response.status).toBe(401);
    expect(viaExpress).toEqual([]);
  });

  it('sends the MCP paths to express', async () => {
    const response = await get('/mcp', null);
    expect(response.status).toBe(404);
    expect(viaExpress).toEqual(['/mcp']);
  });
});
