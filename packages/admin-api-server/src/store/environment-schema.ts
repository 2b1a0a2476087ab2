import type { Knex } from 'knex';
import { publishPlatformEvent } from './platform-events';

/** A collection an agent declared, with the display names of its actions. */
export interface DeclaredCollection {
  name: string;
  actionNames: string[];
}

/** Whether the environment already holds the schema of this hash. */
export async function hasSchemaHash(
  knex: Knex,
  environmentId: number,
  hash: string,
): Promise<boolean> {
  const row = await knex('environments').where({ id: environmentId }).first('schema_hash');
  return row?.schema_hash === hash;
}

/**
 * Stores an uploaded schema and the collections it declares. The environment row is locked, so
 * concurrent uploads (several agent instances starting together) replace it one after the other
 * and the collections always match one whole upload. Agents of the project are told to refetch
 * the environment permissions, which list the collections.
 */
export async function storeSchema(
  knex: Knex,
  environment: { id: number; projectId: number },
  upload: { hash: string; document: unknown; collections: DeclaredCollection[] },
): Promise<void> {
  const environmentId = environment.id;
  await knex.transaction(async (trx) => {
    await trx('environments').where({ id: environmentId }).forUpdate().first('id');
    await trx('environments')
      .where({ id: environmentId })
      .update({ schema_hash: upload.hash, schema: JSON.stringify(upload.document) });
    await trx('environment_collections').where({ environment_id: environmentId }).delete();
    if (upload.collections.length > 0) {
      await trx('environment_collections').insert(
        upload.collections.map((collection) => ({
          environment_id: environmentId,
          name: collection.name,
          action_names: JSON.stringify(collection.actionNames),
        })),
      );
    }
    await publishPlatformEvent(trx, environment.projectId, 'refresh-roles');
  });
}

/** The schema document last uploaded for the environment; `undefined` before the first upload. */
export async function storedSchema(knex: Knex, environmentId: number): Promise<unknown> {
  const row = await knex('environments').where({ id: environmentId }).first('schema');
  return row?.schema ?? undefined;
}

/** The collections the environment's agent declared, by name. */
export async function declaredCollections(
  knex: Knex,
  environmentId: number,
): Promise<DeclaredCollection[]> {
  const rows: { name: string; action_names: string[] }[] = await knex('environment_collections')
    .where({ environment_id: environmentId })
    .orderBy('name')
    .select('name', 'action_names');
  return rows.map((row) => ({ name: row.name, actionNames: row.action_names }));
}
