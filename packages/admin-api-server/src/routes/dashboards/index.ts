import { Router } from 'express';
import { requireSessionOr } from '../../auth';
import { invalidBody, unauthorized } from '../../errors';
import { jsonBody } from '../../http/body';
import { required, type ServerContext } from '../../context';
import { findDashboard, saveDashboard, type DashboardItem } from '../../store/dashboards';
import { bodyParser } from '../../validation/ajv';
import { DASHBOARD_BODY } from './schemas';

export { DASHBOARD, DASHBOARD_BODY, DASHBOARD_ITEM } from './schemas';

const PATH = '/v1/project/:projectName/environment/:environmentName/dashboard';
const parseBody = bodyParser<{ items: DashboardItem[] }>(DASHBOARD_BODY);

const noApplicationToken = () => {
  throw unauthorized(
    'The dashboard is read and saved with a user session token (the console), not an application token.',
  );
};

/**
 * The environment's dashboard (the console): every member of the project reads it, admins
 * replace it. Session tokens only.
 */
export function dashboardsRouter(ctx: ServerContext): Router {
  const member = requireSessionOr(ctx, noApplicationToken);
  const admin = requireSessionOr(ctx, noApplicationToken, 'admin');
  return Router()
    .get(PATH, member, async (req, res) => {
      const environment = required(req.environment, 'environment');
      res.json(serialize(await findDashboard(ctx.knex, environment.id)));
    })
    .put(PATH, admin, jsonBody(), async (req, res) => {
      const { items } = parseBody(req.body);
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (seen.has(item.id)) {
          throw invalidBody(`items[${index}].id`, `repeats the id "${item.id}" of another chart`);
        }
        seen.add(item.id);
      });
      const project = required(req.project, 'project');
      const environment = required(req.environment, 'environment');
      const saved = await saveDashboard(
        ctx.knex,
        {
          projectId: project.id,
          environmentId: environment.id,
          environmentName: environment.name,
          actorId: required(req.platformAuth, 'auth').userId,
        },
        items,
      );
      res.json(serialize(saved));
    });
}

function serialize(dashboard: { items: DashboardItem[]; updatedAt: Date | null }) {
  return {
    items: dashboard.items,
    updatedAt: dashboard.updatedAt ? dashboard.updatedAt.toISOString() : null,
  };
}
