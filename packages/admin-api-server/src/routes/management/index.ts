import type { ProjectDetails } from '@canopy/platform-protocol';
import { Router, type Request, type RequestHandler } from 'express';
import { authenticateSession, requireSession } from '../../auth';
import { publicOrigin, required, type ServerContext } from '../../context';
import { chargeRequest } from '../../rate-limit';
import {
  addMember,
  listMembers,
  removeMember,
  unlockMember,
  updateMember,
} from '../../store/management/members';
import {
  createEnvironmentWithSecret,
  deleteEnvironment,
  listEnvironments,
  updateEnvironment,
} from '../../store/management/environments';
import { createProjectFor } from '../../store/management/projects';
import { createRole, deleteRole, listRoles, updateRole } from '../../store/management/roles';
import {
  createTeamWithLog,
  deleteTeam,
  listTeams,
  setTeamCharts,
  teamCharts,
  updateTeam,
} from '../../store/management/teams';
import { bodyParser } from '../../validation/ajv';
import { assertApplicableScopes } from './team-scopes';
import { accountLink } from '../account/password-page';
import { authenticatedBody, jsonBody } from '../../http/body';
import { idParam } from '../../validation/input-rules';
import * as schemas from './schemas';
import { publishAccessChange } from '../../store/access-changes';

/** The user of a management call, from its session token (charged to the user's rate limit). */
async function sessionUser(ctx: ServerContext, req: Request, res: Parameters<RequestHandler>[1]) {
  const { userId } = await authenticateSession(ctx, req);
  await chargeRequest(ctx.rateLimiter, res, `session:${userId}`);
  return userId;
}

const parse = {
  project: bodyParser<{ name: string }>(schemas.CREATE_PROJECT_BODY),
  updateProject: bodyParser<{ ssoEnabled?: boolean; activityLogRetentionMonths?: number | null }>(
    schemas.UPDATE_PROJECT_BODY,
  ),
  createEnvironment: bodyParser<Parameters<typeof createEnvironmentWithSecret>[3]>(
    schemas.CREATE_ENVIRONMENT_BODY,
  ),
  updateEnvironment: bodyParser<Parameters<typeof updateEnvironment>[4]>(
    schemas.UPDATE_ENVIRONMENT_BODY,
  ),
  addMember: bodyParser<Parameters<typeof addMember>[3]>(schemas.ADD_MEMBER_BODY),
  updateMember: bodyParser<Parameters<typeof updateMember>[4]>(schemas.UPDATE_MEMBER_BODY),
  createRole: bodyParser<Parameters<typeof createRole>[3]>(schemas.ROLE_BODY(true)),
  updateRole: bodyParser<Parameters<typeof updateRole>[4]>(schemas.ROLE_BODY(false)),
  createTeam: bodyParser<Parameters<typeof createTeamWithLog>[3]>(schemas.TEAM_BODY(true)),
  updateTeam: bodyParser<Parameters<typeof updateTeam>[4]>(schemas.TEAM_BODY(false)),
  charts: bodyParser<{ charts: Record<string, unknown>[] }>(schemas.TEAM_CHARTS_BODY),
  ipWhitelist: bodyParser<{ rules: unknown[] | null }>(schemas.IP_WHITELIST_BODY),
};

/** Any valid session token (creating a project). */
function requireSessionUser(ctx: ServerContext): RequestHandler {
  return async (req, res, next) => {
    const userId = await sessionUser(ctx, req, res);
    req.platformAuth = { kind: 'session', userId, scopes: [], sso: false };
    next();
  };
}

function userIdParam(req: Request): number {
  return idParam('userId', req.params.userId);
}

/**
 * The management API: projects, environments (with their env secrets), members, roles, teams
 * and the IP whitelist. Callers authenticate with a user session token; project routes need an
 * `admin` member. Each change writes its admin log in its own transaction, and changes agents
 * care about publish a server-sent event to them.
 */
export function managementRouter(ctx: ServerContext): Router {
  // The body is read once the caller is known to be an admin of the project.
  const admin = authenticatedBody(requireSession(ctx, 'admin'));
  const base = '/v1/project/:projectName';
  const ids = (req: Request) => ({
    projectId: required(req.project, 'project').id,
    actorId: required(req.platformAuth, 'auth').userId,
  });
  return Router()
    .post('/v1/projects', requireSessionUser(ctx), jsonBody(), async (req, res) => {
      const userId = required(req.platformAuth, 'auth').userId;
      const project = await createProjectFor(ctx.knex, userId, parse.project(req.body).name);
      res.status(201).json({ id: project.id, name: project.name });
    })
    .get(base, admin, async (req, res) => {
      const { projectId } = ids(req);
      const [environments, members, roles, teams, settings] = await Promise.all([
        listEnvironments(ctx.knex, projectId),
        listMembers(ctx.knex, projectId).then(async (members) => {
          const locked = await ctx.loginLimiter.lockedUntil(members.map((m) => m.email));
          return members.map((member) => ({
            ...member,
            lockedUntil: locked.get(member.email)?.toISOString() ?? null,
          }));
        }),
        listRoles(ctx.knex, projectId),
        listTeams(ctx.knex, projectId),
        ctx
          .knex('projects')
          .where({ id: projectId })
          .first('ip_whitelist_rules', 'activity_log_retention_months'),
      ]);
      const details: ProjectDetails = {
        id: projectId,
        name: required(req.project, 'project').name,
        ssoEnabled: required(req.project, 'project').sso_enabled,
        environments,
        members,
        roles,
        teams,
        ipWhitelist: settings?.ip_whitelist_rules ?? null,
        activityLogRetentionMonths: settings?.activity_log_retention_months ?? null,
      };
      res.json(details);
    })
    .patch(base, admin, async (req, res) => {
      const { projectId } = ids(req);
      const changes = parse.updateProject(req.body);
      const row = await ctx.knex.transaction(async (trx) => {
        const [updated] = await trx('projects')
          .where({ id: projectId })
          .update({
            ...(changes.ssoEnabled !== undefined ? { sso_enabled: changes.ssoEnabled } : {}),
            ...(changes.activityLogRetentionMonths !== undefined
              ? { activity_log_retention_months: changes.activityLogRetentionMonths }
              : {}),
          })
          .returning(['sso_enabled', 'activity_log_retention_months']);
        // Tokens created without SSO are refused from now on, on every replica.
        if (changes.ssoEnabled !== undefined) await publishAccessChange(trx);
        return updated;
      });
      res.json({
        id: projectId,
        name: required(req.project, 'project').name,
        ssoEnabled: row.sso_enabled,
        activityLogRetentionMonths: row.activity_log_retention_months,
      });
    })
    .post(`${base}/environments`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const result = await createEnvironmentWithSecret(
        ctx.knex,
        projectId,
        actorId,
        parse.createEnvironment(req.body),
      );
      // The env secret is shown once: no cache may keep a copy.
      res.status(201).set('Cache-Control', 'no-store').json(result);
    })
    .patch(`${base}/environments/:environmentName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const result = await updateEnvironment(
        ctx.knex,
        projectId,
        actorId,
        String(req.params.environmentName),
        parse.updateEnvironment(req.body),
      );
      res.set('Cache-Control', 'no-store').json(result);
    })
    .delete(`${base}/environments/:environmentName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      await deleteEnvironment(ctx.knex, projectId, actorId, String(req.params.environmentName));
      res.status(204).end();
    })
    .post(`${base}/members`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const { member, invitation } = await addMember(
        ctx.knex,
        projectId,
        actorId,
        parse.addMember(req.body),
      );
      if (!invitation) {
        res.status(201).json(member);
        return;
      }
      // The invitation link is shown once, to be handed to the invited person.
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({
          ...member,
          invitation: {
            url: accountLink(publicOrigin(ctx, req), invitation.token),
            token: invitation.token,
            expiresAt: invitation.expiresAt.toISOString(),
          },
        });
    })
    .patch(`${base}/members/:userId`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      res.json(
        await updateMember(
          ctx.knex,
          projectId,
          actorId,
          userIdParam(req),
          parse.updateMember(req.body),
        ),
      );
    })
    .delete(`${base}/members/:userId`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      await removeMember(ctx.knex, projectId, actorId, userIdParam(req));
      res.status(204).end();
    })
    .delete(`${base}/members/:userId/lock`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      await unlockMember(ctx.knex, ctx.loginLimiter, projectId, actorId, userIdParam(req));
      res.status(204).end();
    })
    .post(`${base}/roles`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      res
        .status(201)
        .json(await createRole(ctx.knex, projectId, actorId, parse.createRole(req.body)));
    })
    .patch(`${base}/roles/:roleName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      res.json(
        await updateRole(
          ctx.knex,
          projectId,
          actorId,
          String(req.params.roleName),
          parse.updateRole(req.body),
        ),
      );
    })
    .delete(`${base}/roles/:roleName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      await deleteRole(ctx.knex, projectId, actorId, String(req.params.roleName));
      res.status(204).end();
    })
    .post(`${base}/teams`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const input = parse.createTeam(req.body);
      await assertApplicableScopes(ctx.knex, projectId, input.scopes);
      res.status(201).json(await createTeamWithLog(ctx.knex, projectId, actorId, input));
    })
    .patch(`${base}/teams/:teamName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const input = parse.updateTeam(req.body);
      await assertApplicableScopes(ctx.knex, projectId, input.scopes);
      res.json(await updateTeam(ctx.knex, projectId, actorId, String(req.params.teamName), input));
    })
    .delete(`${base}/teams/:teamName`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      await deleteTeam(ctx.knex, projectId, actorId, String(req.params.teamName));
      res.status(204).end();
    })
    .get(`${base}/teams/:teamName/charts`, admin, async (req, res) => {
      const { projectId } = ids(req);
      res.json({ charts: await teamCharts(ctx.knex, projectId, String(req.params.teamName)) });
    })
    .put(`${base}/teams/:teamName/charts`, admin, async (req, res) => {
      const { projectId, actorId } = ids(req);
      const { charts } = parse.charts(req.body);
      res.json({
        charts: await setTeamCharts(
          ctx.knex,
          projectId,
          actorId,
          String(req.params.teamName),
          charts,
        ),
      });
    })
    .put(`${base}/ip-whitelist`, admin, async (req, res) => {
      const { projectId } = ids(req);
      const { rules } = parse.ipWhitelist(req.body);
      await ctx
        .knex('projects')
        .where({ id: projectId })
        .update({ ip_whitelist_rules: rules === null ? null : JSON.stringify(rules) });
      res.json({ rules });
    });
}
