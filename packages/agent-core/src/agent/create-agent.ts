import { createAgentPipeline } from '../http';
import { Agent, type TypingsSchema } from './agent';
import { type AgentOptions, resolveAgentOptions } from './agent-options';

/**
 * Creates an agent (spec §2.1, §4.1). Options are validated at once; secrets and the platform
 * URL fall back to `CANOPY_AUTH_SECRET`, `CANOPY_ENV_SECRET` and `CANOPY_SERVER_URL`. Pass the
 * `Schema` type of the generated typings (`createAgent<Schema>()`) to check collection names at
 * compile time.
 *
 * @throws AgentOptionsError listing every invalid option (secrets' values are never shown).
 * @example
 * import { createAgent } from '@canopy/agent-core';
 * import { createSqlDataSource } from '@canopy/datasource-sql';
 *
 * await createAgent({ isProduction: process.env.NODE_ENV === 'production' })
 *   .addDataSource(createSqlDataSource(process.env.DATABASE_URL!))
 *   .mountOnStandaloneServer(3351)
 *   .start();
 */
export function createAgent<S extends TypingsSchema = TypingsSchema>(
  options: AgentOptions = {},
): Agent<S> {
  return new Agent<S>(resolveAgentOptions(options), { createPipeline: createAgentPipeline });
}
