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

/** An action of the environment's uploaded schema: its collection, display name and id. */
export interface SchemaAction {
  collection: string;
  name: string;
  /** The action's id in the schema (e.g. `orders-0-refund-order`): the agent's `smart_action_id`. */
  id: string;
}

/**
 * The actions of the schema the environment's agent uploaded (none before the first upload): each
 * collection's `relationships.actions`, resolved from `included` (the shape `readSchemaDocument`
 * checked on upload). Read in the database, so the document never travels whole.
 */
export async function schemaActions(knex: Knex, environmentId: number): Promise<SchemaAction[]> {
  const result = await knex.raw(
    `SELECT c->'attributes'->>'name' AS collection, a->'attributes'->>'name' AS name, a->>'id' AS id
       FROM environments e
       CROSS JOIN LATERAL jsonb_array_elements(e.schema->'data') AS c
       CROSS JOIN LATERAL jsonb_array_elements(
         COALESCE(c->'relationships'->'actions'->'data', '[]'::jsonb)) AS r
       JOIN LATERAL jsonb_array_elements(COALESCE(e.schema->'included', '[]'::jsonb)) AS a
         ON a->>'type' = 'actions' AND a->>'id' = r->>'id'
      WHERE e.id = ?`,
    [environmentId],
  );
  return result.rows as SchemaAction[];
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
