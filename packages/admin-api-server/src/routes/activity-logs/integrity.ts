import type { RequestHandler } from 'express';
import { required, type ServerContext } from '../../context';
import { registeredChainKeys } from '../../integrity/chain-keys';
import { checkpointChainHead, checkpointPublicKeys } from '../../integrity/checkpoints';
import { verifyActivityLogChain } from '../../integrity/verify-chain';
import { queryParser, type JsonSchema } from '../../validation/ajv';
import { dateFilterOf, dateFilterProperties } from '../../validation/query-schemas';
import { echoParameters } from '../echo-parameters';

/** Query schema of the integrity check: a creation-time range. */
export const INTEGRITY_QUERY: JsonSchema = {
  type: 'object',
  properties: dateFilterProperties('createdAt'),
  additionalProperties: false,
};

const parseIntegrityQuery = queryParser<Record<string, unknown>>(INTEGRITY_QUERY);

/**
 * `GET …/activity-logs/integrity`: re-computes the project's hash chain over the links whose logs
 * fall in the range, and reports the first broken one.
 */
export function activityLogIntegrityHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    const environment = required(req.environment, 'environment');
    const query = parseIntegrityQuery(req.query);
    const report = await verifyActivityLogChain(
      ctx.knex,
      project.id,
      dateFilterOf(query, 'createdAt'),
    );
    res.json({
      object: 'activityLogIntegrity',
      ...report,
      parameters: echoParameters(
        { projectName: project.name, environmentName: environment.name },
        query,
      ),
    });
  };
}

/**
 * `GET …/activity-logs/checkpoint`: a signed checkpoint of the project's chain head (recorded, so
 * the CLI exports it too) and the public keys that verify it. An auditor keeps both elsewhere and
 * later checks the chain still holds the link (`canopy-admin-api checkpoints verify`).
 */
export function activityLogCheckpointHandler(ctx: ServerContext): RequestHandler {
  return async (req, res) => {
    const project = required(req.project, 'project');
    res.set('Cache-Control', 'no-store').json({
      object: 'activityLogCheckpoint',
      checkpoint: await checkpointChainHead(ctx.knex, project),
      publicKeys: checkpointPublicKeys(registeredChainKeys(ctx.knex)),
    });
  };
}
