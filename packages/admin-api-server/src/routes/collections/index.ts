import { Router } from 'express';
import { requireApplicationToken } from '../../auth';
import { required, type ServerContext } from '../../context';
import { declaredCollections } from '../../store/environment-schema';

/**
 * `GET /v1/project/{p}/environment/{e}/collections`: the collections the environment's agent
 * declared in its last schema upload (the values `collectionName` filters take), with their
 * action names. Readable with `activity_logs:read`.
 */
export function collectionsRouter(ctx: ServerContext): Router {
  return Router().get(
    '/v1/project/:projectName/environment/:environmentName/collections',
    requireApplicationToken(ctx, 'activity_logs:read'),
    async (req, res) => {
      const environment = required(req.environment, 'environment');
      const collections = await declaredCollections(ctx.knex, environment.id);
      res.json({
        data: collections.map((collection) => ({
          object: 'collection',
          name: collection.name,
          actions: collection.actionNames,
        })),
      });
    },
  );
}
