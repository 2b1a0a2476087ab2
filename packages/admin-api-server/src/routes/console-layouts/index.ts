import { Router, type Request } from 'express';
import {
  LAYOUT_EDITOR_LEVELS,
  type ConsoleLayout,
  type PlainConditionTree,
  type PublishedLayout,
} from '@canopy/platform-protocol';
import { requireSessionOr } from '../../auth';
import { required, type ServerContext } from '../../context';
import { ApiError, forbidden, invalidBody, unauthorized } from '../../errors';
import { jsonBody } from '../../http/body';
import {
  deleteLayoutDraft,
  deleteTeamSegment,
  findLayoutDraft,
  findPublishedLayout,
  listLayoutVersions,
  listTeamSegments,
  publishLayout,
  saveLayoutDraft,
  saveTeamSegment,
  type TeamPlace,
  type TeamSegmentRecord,
} from '../../store/console-layouts';
import { findPermissionLevel, type PermissionLevel } from '../../store/model';
import {
  createSavedView,
  deleteSavedView,
  findSavedView,
  listSavedViews,
  setTeamDefaultView,
  updateSavedView,
  viewNotFound,
  type SavedViewInput,
  type SavedViewRecord,
} from '../../store/saved-views';
import { bodyParser, queryParser } from '../../validation/ajv';
import { idParam } from '../../validation/input-rules';
import {
  COPY_LAYOUT_BODY,
  CREATE_SEGMENT_BODY,
  CREATE_VIEW_BODY,
  DEFAULT_VIEW_BODY,
  LAYOUT_DRAFT_BODY,
  LIST_SEGMENTS_QUERY,
  LIST_VIEWS_QUERY,
  UPDATE_SEGMENT_BODY,
  UPDATE_VIEW_BODY,
} from './schemas';

export * from './schemas';

const ENV = '/v1/project/:projectName/environment/:environmentName';
const TEAM = `${ENV}/teams/:teamName`;

const parseLayout = bodyParser<{ layout: ConsoleLayout }>(LAYOUT_DRAFT_BODY);

/** The draft body: its schema, then what a schema cannot say (a currency widget's one source). */
function parseDraft(body: unknown): { layout: ConsoleLayout } {
  const parsed = parseLayout(body);
  for (const [collection, layout] of Object.entries(parsed.layout.collections ?? {})) {
    for (const [field, widgets] of Object.entries(layout.fields ?? {})) {
      for (const [use, widget] of Object.entries(widgets)) {
        const settings = widget?.settings ?? {};
        if (widget?.type === 'currency' && 'currency' in settings === 'currencyField' in settings) {
          throw invalidBody(
            `layout.collections.${collection}.fields.${field}.${use}.settings`,
            'needs exactly one of currency (an ISO 4217 code) and currencyField',
          );
        }
      }
    }
  }
  return parsed;
}
const parseCopy = bodyParser<{ fromTeamName: string }>(COPY_LAYOUT_BODY);
type ViewBody = Partial<SavedViewInput> & { teamName?: string | null };
const parseCreateView = bodyParser<ViewBody & { name: string; collection: string }>(
  CREATE_VIEW_BODY,
);
const parseUpdateView = bodyParser<ViewBody>(UPDATE_VIEW_BODY);
const parseDefaultView = bodyParser<{ viewId: number }>(DEFAULT_VIEW_BODY);
type SegmentBody = { name?: string; collection?: string; filter?: PlainConditionTree };
const parseCreateSegment = bodyParser<Required<SegmentBody>>(CREATE_SEGMENT_BODY);
const parseUpdateSegment = bodyParser<SegmentBody>(UPDATE_SEGMENT_BODY);
const parseViewsQuery = queryParser<{ collection: string }>(LIST_VIEWS_QUERY);
const parseSegmentsQuery = queryParser<{ collection?: string }>(LIST_SEGMENTS_QUERY);

const noApplicationToken = () => {
  throw unauthorized(
    'Console layouts, saved views and team segments are read and written with a user session token (the Console), not an application token.',
  );
};

/** Whether a permission level may edit layouts, team segments and team default views. */
export const editsLayouts = (level: PermissionLevel): boolean =>
  (LAYOUT_EDITOR_LEVELS as readonly string[]).includes(level);

interface Caller {
  userId: number;
  level: PermissionLevel;
  projectId: number;
  projectName: string;
  environmentId: number;
  environmentName: string;
}

async function callerOf(ctx: ServerContext, req: Request): Promise<Caller> {
  const project = required(req.project, 'project');
  const environment = required(req.environment, 'environment');
  const userId = required(req.platformAuth, 'auth').userId;
  const level = required(await findPermissionLevel(ctx.knex, project.id, userId), 'membership');
  return {
    userId,
    level,
    projectId: project.id,
    projectName: project.name,
    environmentId: environment.id,
    environmentName: environment.name,
  };
}

/** The teams of the project the caller belongs to. */
async function callerTeams(ctx: ServerContext, caller: Caller): Promise<Map<string, number>> {
  const rows: { id: number; name: string }[] = await ctx
    .knex('teams')
    .join('project_membership_teams as mt', 'mt.team_id', 'teams.id')
    .join('project_memberships as m', 'm.id', 'mt.membership_id')
    .where({ 'm.project_id': caller.projectId, 'm.user_id': caller.userId })
    .select('teams.id', 'teams.name');
  return new Map(rows.map((row) => [row.name, row.id]));
}

/**
 * A team of the caller's project the caller may act on: one they belong to, or any team for an
 * admin. `edit` also requires a layout editor's permission level (LAYOUT_EDITOR_LEVELS).
 */
async function teamPlace(
  ctx: ServerContext,
  caller: Caller,
  teamName: string,
  edit: boolean,
): Promise<TeamPlace> {
  const team: { id: number; name: string } | undefined = await ctx
    .knex('teams')
    .where({ project_id: caller.projectId, name: teamName })
    .first('id', 'name');
  if (!team) {
    throw new ApiError(404, 'team_not_found', `Project has no team named "${teamName}".`);
  }
  if (caller.level !== 'admin' && !(await callerTeams(ctx, caller)).has(team.name)) {
    throw forbidden(`Only members of team "${teamName}" and admins can do this.`);
  }
  if (edit && !editsLayouts(caller.level)) {
    throw forbidden(
      `Only an admin, developer or editor of project "${caller.projectName}" can change the Console of team "${teamName}" (you are ${caller.level}).`,
    );
  }
  return {
    projectId: caller.projectId,
    environmentId: caller.environmentId,
    environmentName: caller.environmentName,
    teamId: team.id,
    teamName: team.name,
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function viewJson(view: SavedViewRecord) {
  const { teamId: _teamId, createdAt, updatedAt, ...rest } = view;
  return { ...rest, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

function segmentJson(place: TeamPlace, segment: TeamSegmentRecord) {
  return {
    ...segment,
    teamName: place.teamName,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}

/**
 * The Console shaped by its users (issue 32): per environment and team, the published layout
 * (every member of the team reads it), each editor's own draft, versions, revert and copy; saved
 * views (personal, or shared with a team; a team's default per collection); team segments, which
 * agents receive in rendering permissions. Session tokens only (the Console). Members of another
 * project get the 404 of an unknown project (requireSessionOr).
 */
export function consoleLayoutsRouter(ctx: ServerContext): Router {
  const member = requireSessionOr(ctx, noApplicationToken);
  const body = jsonBody();
  const place = async (req: Request, edit: boolean) => {
    const caller = await callerOf(ctx, req);
    return { caller, place: await teamPlace(ctx, caller, String(req.params.teamName), edit) };
  };

  return (
    Router()
      // Layouts
      .get(`${TEAM}/layout`, member, async (req, res) => {
        const { place: team } = await place(req, false);
        const published = await findPublishedLayout(ctx.knex, team);
        res.json({ teamName: team.teamName, published: published ?? null });
      })
      .get(`${TEAM}/layout/draft`, member, async (req, res) => {
        const { caller, place: team } = await place(req, true);
        const draft = await findLayoutDraft(ctx.knex, team, caller.userId);
        res.json({
          teamName: team.teamName,
          layout: draft?.layout ?? null,
          baseVersion: draft?.baseVersion ?? null,
          updatedAt: iso(draft?.updatedAt ?? null),
        });
      })
      .put(`${TEAM}/layout/draft`, member, body, async (req, res) => {
        const { layout } = parseDraft(req.body);
        const { caller, place: team } = await place(req, true);
        const draft = await saveLayoutDraft(ctx.knex, team, caller.userId, layout);
        res.json({
          teamName: team.teamName,
          layout: draft.layout,
          baseVersion: draft.baseVersion,
          updatedAt: iso(draft.updatedAt),
        });
      })
      .delete(`${TEAM}/layout/draft`, member, async (req, res) => {
        const { caller, place: team } = await place(req, true);
        await deleteLayoutDraft(ctx.knex, team, caller.userId);
        res.status(204).end();
      })
      .post(`${TEAM}/layout/publish`, member, async (req, res) => {
        const { caller, place: team } = await place(req, true);
        res.status(201).json(await publishLayout(ctx.knex, team, caller.userId, { kind: 'draft' }));
      })
      .get(`${TEAM}/layout/versions`, member, async (req, res) => {
        const { place: team } = await place(req, true);
        res.json({ data: await listLayoutVersions(ctx.knex, team) });
      })
      .post(`${TEAM}/layout/versions/:version/revert`, member, async (req, res) => {
        const version = idParam('version', req.params.version);
        const { caller, place: team } = await place(req, true);
        const published: PublishedLayout = await publishLayout(ctx.knex, team, caller.userId, {
          kind: 'revert',
          version,
        });
        res.status(201).json(published);
      })
      .post(`${TEAM}/layout/copy`, member, body, async (req, res) => {
        const { fromTeamName } = parseCopy(req.body);
        const { caller, place: team } = await place(req, true);
        const from = await teamPlace(ctx, caller, fromTeamName, false);
        if (from.teamId === team.teamId) {
          throw invalidBody('fromTeamName', 'must name another team than the one copied to');
        }
        res
          .status(201)
          .json(await publishLayout(ctx.knex, team, caller.userId, { kind: 'copy', from }));
      })

      // Saved views
      .get(`${ENV}/views`, member, async (req, res) => {
        const { collection } = parseViewsQuery(req.query);
        const caller = await callerOf(ctx, req);
        const teamIds = [...(await callerTeams(ctx, caller)).values()];
        const views = await listSavedViews(ctx.knex, caller.environmentId, {
          userId: caller.userId,
          teamIds,
          collection,
        });
        res.json({ data: views.map(viewJson) });
      })
      .post(`${ENV}/views`, member, body, async (req, res) => {
        const { teamName, ...input } = parseCreateView(req.body);
        const caller = await callerOf(ctx, req);
        const teamId = await sharedTeamId(ctx, caller, teamName ?? null);
        const view = await createSavedView(
          ctx.knex,
          { projectId: caller.projectId, environmentId: caller.environmentId },
          caller.userId,
          teamId,
          {
            filter: null,
            search: null,
            sort: null,
            columns: null,
            segment: null,
            ...input,
          },
        );
        res.status(201).json(viewJson(view));
      })
      .patch(`${ENV}/views/:viewId`, member, body, async (req, res) => {
        const id = idParam('viewId', req.params.viewId);
        const { teamName, ...input } = parseUpdateView(req.body);
        const caller = await callerOf(ctx, req);
        await ownedView(ctx, caller, id);
        const teamId =
          teamName === undefined ? undefined : await sharedTeamId(ctx, caller, teamName);
        const view = await updateSavedView(ctx.knex, caller.environmentId, id, {
          ...input,
          ...(teamId !== undefined ? { teamId } : {}),
        });
        res.json(viewJson(view));
      })
      .delete(`${ENV}/views/:viewId`, member, async (req, res) => {
        const id = idParam('viewId', req.params.viewId);
        const caller = await callerOf(ctx, req);
        const view = await ownedView(ctx, caller, id);
        await deleteSavedView(
          ctx.knex,
          view,
          {
            projectId: caller.projectId,
            environmentId: caller.environmentId,
            environmentName: caller.environmentName,
          },
          caller.userId,
        );
        res.status(204).end();
      })
      .put(`${TEAM}/default-views/:collectionName`, member, body, async (req, res) => {
        const { viewId } = parseDefaultView(req.body);
        const { caller, place: team } = await place(req, true);
        const collection = String(req.params.collectionName);
        const view = await findSavedView(ctx.knex, caller.environmentId, viewId);
        const visible =
          view !== undefined &&
          (caller.level === 'admin' ||
            view.owner?.id === caller.userId ||
            (view.teamName !== null && (await callerTeams(ctx, caller)).has(view.teamName)));
        if (!view || !visible) throw viewNotFound(viewId);
        if (view.teamId !== team.teamId || view.collection !== collection) {
          throw invalidBody(
            'viewId',
            `must be a view of collection "${collection}" shared with team "${team.teamName}"`,
          );
        }
        await setTeamDefaultView(ctx.knex, team, caller.userId, collection, view);
        res.json(viewJson((await findSavedView(ctx.knex, caller.environmentId, viewId))!));
      })
      .delete(`${TEAM}/default-views/:collectionName`, member, async (req, res) => {
        const { caller, place: team } = await place(req, true);
        await setTeamDefaultView(
          ctx.knex,
          team,
          caller.userId,
          String(req.params.collectionName),
          null,
        );
        res.status(204).end();
      })

      // Team segments
      .get(`${TEAM}/segments`, member, async (req, res) => {
        const { collection } = parseSegmentsQuery(req.query);
        const { place: team } = await place(req, false);
        const segments = await listTeamSegments(ctx.knex, team, collection);
        res.json({ data: segments.map((segment) => segmentJson(team, segment)) });
      })
      .post(`${TEAM}/segments`, member, body, async (req, res) => {
        const input = parseCreateSegment(req.body);
        const { caller, place: team } = await place(req, true);
        const segment = await saveTeamSegment(ctx.knex, team, caller.userId, input);
        res.status(201).json(segmentJson(team, segment));
      })
      .patch(`${TEAM}/segments/:segmentId`, member, body, async (req, res) => {
        const id = idParam('segmentId', req.params.segmentId);
        const input = parseUpdateSegment(req.body);
        const { caller, place: team } = await place(req, true);
        const segment = await saveTeamSegment(ctx.knex, team, caller.userId, { ...input, id });
        res.json(segmentJson(team, segment));
      })
      .delete(`${TEAM}/segments/:segmentId`, member, async (req, res) => {
        const id = idParam('segmentId', req.params.segmentId);
        const { caller, place: team } = await place(req, true);
        await deleteTeamSegment(ctx.knex, team, caller.userId, id);
        res.status(204).end();
      })
  );
}

/** The team a view is shared with: one of the caller's teams (any team for an admin), or none. */
async function sharedTeamId(
  ctx: ServerContext,
  caller: Caller,
  teamName: string | null,
): Promise<number | null> {
  if (teamName === null) return null;
  return (await teamPlace(ctx, caller, teamName, false)).teamId;
}

/**
 * A view the caller may change: their own, or any view for an admin. Views the caller cannot see
 * answer 404; views shared with their team that they do not own answer 403.
 */
async function ownedView(ctx: ServerContext, caller: Caller, id: number): Promise<SavedViewRecord> {
  const view = await findSavedView(ctx.knex, caller.environmentId, id);
  if (!view) throw viewNotFound(id);
  if (view.owner?.id === caller.userId || caller.level === 'admin') return view;
  const visible = view.teamId !== null && (await callerTeams(ctx, caller)).has(view.teamName ?? '');
  if (!visible) throw viewNotFound(id);
  throw forbidden('Only the owner of a saved view and admins can change or delete it.');
}
