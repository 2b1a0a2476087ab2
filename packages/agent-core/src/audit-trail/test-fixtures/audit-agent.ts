import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqlDataSource } from '@canopy/datasource-sql';

import type { Agent } from '../../agent/agent';
import type { AgentOptions } from '../../agent/agent-options';
import { createAgent } from '../../agent/create-agent';

/**
 * Starts an agent recording history (`auditTrail`) on the SQL database at `databaseUrl`, with the
 * platform sandbox at `serverUrl`, served on a free port of 127.0.0.1; `customize` adds actions
 * and the like before the start. The caller stops it.
 */
export async function startAuditAgent(options: {
  databaseUrl: string;
  serverUrl: string;
  secrets: { envSecret: string; authSecret: string };
  auditTrail: AgentOptions['auditTrail'];
  customize?: (agent: Agent) => Agent;
}): Promise<{ agent: Agent; base: string; schemaPath: string }> {
  const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-audit-')), '.canopy-schema.json');
  const created = createAgent({
    ...options.secrets,
    serverUrl: options.serverUrl,
    schemaPath,
    isProduction: false,
    logger: () => undefined,
    auditTrail: options.auditTrail,
  }).addDataSource(createSqlDataSource(options.databaseUrl));
  const agent = (options.customize ?? ((same: Agent) => same))(created);
  await agent.mountOnStandaloneServer(0, '127.0.0.1').start();
  return { agent, base: `http://127.0.0.1:${agent.standaloneServerPort}`, schemaPath };
}
