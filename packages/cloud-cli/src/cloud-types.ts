import type { Agent as CoreAgent, TypingsSchema } from '@canopy/agent-core';

/**
 * The agent a customization function receives (`export default function (agent: Agent<Schema>)`
 * in `src/index.ts`): the customization methods of `@canopy/agent-core`'s `Agent`, typed with the
 * generated `Schema`. Data sources are configured by the project, not by customizations.
 *
 * @example
 * import type { Agent } from '@canopy/cloud-cli';
 * import type { Schema } from './typings';
 *
 * export default function customizeAgent(agent: Agent<Schema>) {
 *   agent.customizeCollection('orders', (orders) => orders.removeField('notes'));
 * }
 */
export type Agent<S extends TypingsSchema = TypingsSchema> = Pick<
  CoreAgent<S>,
  'customizeCollection' | 'removeCollection' | 'addChart' | 'use'
>;

/**
 * Connection parameters of a document (MongoDB) database: Canopy has no document data source yet,
 * so this only names the shape such a data source will take.
 */
export interface MongoConnectionParams {
  /** `mongodb://` or `mongodb+srv://` connection string. */
  uri: string;
  /** Options passed to the driver's client as they are. */
  connectOptions?: Record<string, unknown>;
}
