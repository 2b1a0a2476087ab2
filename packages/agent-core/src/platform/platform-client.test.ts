import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createServerSandbox } from '@canopy/testing';
import { isPlatformError } from './platform-error';
import { PlatformClient } from './platform-client';

const SECRET = '5'.repeat(64);
const logger = () => {};
const document = {
  jsonapi: { version: '1.0' },
  meta: { liana: 'canopy-agent', schemaFileHash: 'h1' },
  data: [{ type: 'collections', id: 'books', attributes: { name: 'books', fields: [] } }],
  included: [],
};

describe('PlatformClient', () => {
  it('uploads a schema only when the platform does not know its hash', async () => {
    const sandbox = await createServerSandbox(0);
    const client = new PlatformClient({ serverUrl: sandbox.url, envSecret: SECRET, logger });
    expect(await client.sendSchema('h1', document)).toBe(true);
    expect(await client.sendSchema('h1', document)).toBe(false);
    expect(sandbox.schemaUploads(SECRET)).toBe(1);
    expect(sandbox.schema(SECRET)?.collections[0]?.name).toBe('books');
    await client.close();
    await sandbox.close();
  });

  it('reads the IP whitelist, and rejects an answer without use_ip_whitelist', async () => {
    const sandbox = await createServerSandbox(0);
    const client = new PlatformClient({ serverUrl: sandbox.url, envSecret: SECRET, logger });
    expect(await client.fetchIpWhitelist()).toBeNull();
    await sandbox.setIpWhitelist([{ type: 0, ip: '10.0.0.1' }]);
    expect((await client.fetchIpWhitelist())?.isAllowed('10.0.0.1')).toBe(true);
    await client.close();
    await sandbox.close();

    const app = express();
    app.get('/liana/v1/ip-whitelist-rules', (_request, response) => {
      response.json({ data: {} });
    });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const odd = new PlatformClient({ serverUrl: url, envSecret: SECRET, logger });
    const error = await odd.fetchIpWhitelist().catch((caught: unknown) => caught);
    expect(isPlatformError(error, 'PLATFORM_BAD_RESPONSE')).toBe(true);
    expect((error as Error).message).toContain(`${url}/liana/v1/ip-whitelist-rules`);
    await odd.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
