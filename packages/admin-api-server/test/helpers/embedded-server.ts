import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdminApiServer, loadConfig, type AdminApiServer } from '../../src';
import { TEST_KEYS } from './test-server';

/**
 * A platform server on the embedded store (one connection, no LISTEN) in a fresh data folder;
 * `close` stops it and removes the folder.
 */
export async function startEmbeddedServer(
  prefix: string,
): Promise<{ server: AdminApiServer; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const config = loadConfig({
    CANOPY_DATA_DIR: dataDir,
    CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
    LOG_LEVEL: 'silent',
  });
  const server = await createAdminApiServer(config).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
