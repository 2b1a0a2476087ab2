import type { Knex } from 'knex';
import { insertAdminLogs } from './admin-log-writer';
import { publishPlatformEvent } from './platform-events';

/** One chart of a dashboard, as the console stores it (see the OpenAPI `DashboardItem`). */
export interface DashboardItem {
  id: string;
  title: string;
  width: number;
  chart:
    | { source: 'collection'; query: Record<string, unknown> }
    | { source: 'api'; chart: string; collection?: string; recordId?: string; kind: string };
}

export interface Dashboard {
  items: DashboardItem[];
  updatedAt: Date | null;
}

/** The dashboard of an environment (empty until an admin saves one). */
export async function findDashboard(knex: Knex, environmentId: number): Promise<Dashboard> {
  const row = await knex('dashboards')
    .where({ environment_id: environmentId })
    .first('items', 'updated_at');
  return { items: row?.items ?? [], updatedAt: row?.updated_at ?? null };
}

/**
 * The UI-built charts of an environment's dashboard, in the shape agents match chart requests
 * against (the `stats` of every rendering, platform protocol 5.3).
 */
export async function dashboardStats(
  knex: Knex,
  environmentId: number,
): Promise<Record<string, unknown>[]> {
  const { items } = await findDashboard(knex, environmentId);
  return items.flatMap((item) => (item.chart.source === 'collection' ? [item.chart.query] : []));
}

/**
 * Replaces an environment's dashboard, with its admin log (an update of the environment), and
 * has agents drop their rendering caches (`refresh-renderings` for every team of the project),
 * so that the new charts are allowed within a second.
 */
export async function saveDashboard(
  knex: Knex,
  input: { projectId: number; environmentId: number; environmentName: string; actorId: number },
  items: DashboardItem[],
): Promise<Dashboard> {
  return knex.transaction(async (trx) => {
    const [row] = await trx('dashboards')
      .insert({
        environment_id: input.environmentId,
        project_id: input.projectId,
        items: JSON.stringify(items),
        updated_by: input.actorId,
        updated_at: trx.fn.now(),
      })
      .onConflict('environment_id')
      .merge(['items', 'updated_by', 'updated_at'])
      .returning(['items', 'updated_at']);
    await insertAdminLogs(trx, input.projectId, [
      {
        type: 'update',
        resource: 'environment',
        initiator: 'administrator',
        userId: input.actorId,
        previousValue: { name: input.environmentName },
        newValue: { name: input.environmentName },
      },
    ]);
    const teams: { id: number }[] = await trx('teams')
      .where({ project_id: input.projectId })
      .select('id');
    if (teams.length > 0) {
      await publishPlatformEvent(trx, input.projectId, 'refresh-renderings', {
        renderingIds: teams.map((team) => team.id),
      });
    }
    return { items: row.items, updatedAt: row.updated_at };
  });
}
