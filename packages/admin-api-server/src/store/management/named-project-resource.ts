import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';

/** A row of a per-project table named uniquely within its project, with one JSON setting column. */
export interface NamedRow<Setting> {
  id: number;
  name: string;
  setting: Setting;
}

/**
 * What differs between roles and teams: their table, JSON column and admin-log resource, how the
 * setting is checked against the project, what agents are told after a change (inside the same
 * transaction), and what may forbid a removal.
 */
export interface NamedResourceKind<Setting> {
  table: 'roles' | 'teams';
  column: 'rights' | 'scopes';
  resource: 'role' | 'team';
  assertKnown(trx: Knex.Transaction, projectId: number, setting: Setting): Promise<void>;
  announce(
    trx: Knex.Transaction,
    projectId: number,
    change: 'add' | 'update' | 'remove',
    id: number,
    holders: readonly number[],
  ): Promise<void>;
  /** The users holding the resource, read before an update or removal and given to `announce`. */
  holders?(trx: Knex.Transaction, id: number): Promise<number[]>;
  assertRemovable?(trx: Knex.Transaction, row: NamedRow<Setting>): Promise<void>;
}

/** The store functions of one kind: list, create, update and delete, each with its admin log. */
export function namedResourceStore<Setting extends object>(kind: NamedResourceKind<Setting>) {
  const { table, column, resource } = kind;
  const columns = ['id', 'name', `${column} as setting`];
  const toRow = (row: { id: number; name: string; setting: Setting | null }) => ({
    id: row.id,
    name: row.name,
    setting: row.setting ?? ({} as Setting),
  });

  async function find(trx: Knex.Transaction, projectId: number, name: string) {
    const row = await trx(table).where({ project_id: projectId, name }).forUpdate().first(columns);
    if (!row) {
      throw new ApiError(
        404,
        `${resource}_not_found`,
        `Project has no ${resource} named "${name}".`,
      );
    }
    return toRow(row);
  }

  /** The admin log of a change and what agents are told of it, in the change's transaction. */
  async function record(
    trx: Knex.Transaction,
    projectId: number,
    actorId: number | null,
    change: 'add' | 'update' | 'remove',
    id: number,
    names: { previous?: string; next?: string },
    holders: readonly number[] = [],
  ): Promise<void> {
    await insertAdminLogs(trx, projectId, [
      {
        type: change,
        resource,
        initiator: 'administrator',
        userId: actorId,
        ...(names.previous !== undefined ? { previousValue: { name: names.previous } } : {}),
        ...(names.next !== undefined ? { newValue: { name: names.next } } : {}),
      },
    ]);
    await kind.announce(trx, projectId, change, id, holders);
  }

  return {
    async list(knex: Knex, projectId: number): Promise<NamedRow<Setting>[]> {
      const rows = await knex(table).where({ project_id: projectId }).orderBy('id').select(columns);
      return rows.map(toRow);
    },

    /** @throws ApiError 409 when the name is taken, 400 when the setting names unknown things. */
    async create(
      knex: Knex,
      projectId: number,
      actorId: number | null,
      input: { name: string; setting?: Setting },
    ): Promise<NamedRow<Setting>> {
      return knex.transaction(async (trx) => {
        const setting = input.setting ?? ({} as Setting);
        await kind.assertKnown(trx, projectId, setting);
        const [row] = await trx(table)
          .insert({ project_id: projectId, name: input.name, [column]: JSON.stringify(setting) })
          .onConflict(['project_id', 'name'])
          .ignore()
          .returning(columns);
        if (!row) {
          throw new ApiError(
            409,
            'conflict',
            `A ${resource} named "${input.name}" already exists.`,
          );
        }
        await record(trx, projectId, actorId, 'add', row.id, { next: row.name });
        return toRow(row);
      });
    },

    /** Renames the resource or replaces its setting. @throws ApiError 404 for an unknown name. */
    async update(
      knex: Knex,
      projectId: number,
      actorId: number | null,
      name: string,
      input: { name?: string; setting?: Setting },
    ): Promise<NamedRow<Setting>> {
      return knex.transaction(async (trx) => {
        const before = await find(trx, projectId, name);
        const holders = (await kind.holders?.(trx, before.id)) ?? [];
        if (input.setting) await kind.assertKnown(trx, projectId, input.setting);
        const changes = {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.setting !== undefined ? { [column]: JSON.stringify(input.setting) } : {}),
        };
        const after =
          Object.keys(changes).length === 0
            ? before
            : toRow(
                (await trx(table).where({ id: before.id }).update(changes).returning(columns))[0],
              );
        await record(
          trx,
          projectId,
          actorId,
          'update',
          before.id,
          { previous: before.name, next: after.name },
          holders,
        );
        return after;
      });
    },

    /** Removes the resource. @throws ApiError 404 for an unknown name, or the kind's refusal. */
    async remove(
      knex: Knex,
      projectId: number,
      actorId: number | null,
      name: string,
    ): Promise<void> {
      await knex.transaction(async (trx) => {
        const before = await find(trx, projectId, name);
        await kind.assertRemovable?.(trx, before);
        const holders = (await kind.holders?.(trx, before.id)) ?? [];
        await trx(table).where({ id: before.id }).delete();
        await record(
          trx,
          projectId,
          actorId,
          'remove',
          before.id,
          { previous: before.name },
          holders,
        );
      });
    },
  };
}
