import { Router } from 'express';
import type { Knex } from 'knex';
import { ApiError } from '../errors';

/**
 * `GET /health` (database round trip) and `GET /v1/openapi.json`, which serves `openApiDocument`
 * (built by src/openapi/, which reads the routes' schemas: the application passes it in). No
 * token needed.
 */
export function operationsRouter(knex: Knex, openApiDocument: object): Router {
  const document = openApiDocument;
  return Router()
    .get('/health', async (_req, res) => {
      try {
        await knex.raw('select 1');
      } catch (error) {
        throw new ApiError(503, 'service_unavailable', 'The database does not answer.', {
          cause: error,
        });
      }
      res.json({ status: 'ok' });
    })
    .get('/v1/openapi.json', (_req, res) => {
      res.json(document);
    });
}
