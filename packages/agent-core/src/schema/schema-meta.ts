import type { SchemaMeta } from './schema-json';

/** Version of `@canopy/agent-core` (kept equal to package.json by a test). */
export const AGENT_VERSION = '0.1.0';

/** The agent family identifier sent to the platform (`meta.liana`). */
export const AGENT_FAMILY = 'canopy-agent';

/** The `meta` of the schema: this agent and the runtime it runs on. */
export function buildSchemaMeta(): SchemaMeta {
  return {
    liana: AGENT_FAMILY,
    liana_version: AGENT_VERSION,
    liana_features: null,
    stack: { engine: 'nodejs', engine_version: process.versions.node },
  };
}
