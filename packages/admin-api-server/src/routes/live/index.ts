import { Router, type Request, type RequestHandler } from 'express';
import { requireSessionOr } from '../../auth';
import type { ConsoleHub } from '../../console-live/hub';
import { required, type ServerContext } from '../../context';
import {
  ApiError,
  invalidBody,
  invalidParameter,
  projectNotAccessible,
  unauthorized,
} from '../../errors';
import { consumeStreamTicket, issueStreamTicket } from '../../store/console-events';
import { decodeIdCursor, encodeIdCursor } from '../../store/cursor';
import {
  listInbox,
  markInboxItemRead,
  markInboxRead,
  suggestMembers,
  unreadCount,
  type InboxOwner,
} from '../../store/inbox';
import { findEnvironmentByName, findPermissionLevel, findProjectByName } from '../../store/model';
import { noteAccess } from '../notes/access';
import { jsonBody } from '../../http/body';
import { assertOwnStream, heartbeatPresence, leavePresence } from '../../store/presence';

const ENV = '/v1/project/:projectName/environment/:environmentName';

/** Application tokens are refused: these routes are a signed-in member's own (the Console's). */
const consoleOnly: RequestHandler = () => {
  throw unauthorized(
    "This route takes a member's session token or Console access token, not an application token.",
  );
};

function owner(req: Request): InboxOwner {
  return {
    projectId: required(req.project, 'project').id,
    environmentId: required(req.environment, 'environment').id,
    userId: required(req.platformAuth, 'auth').userId,
  };
}

/** A whole number query parameter within [min, max], or `fallback` when absent. */
function intParam(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || +raw < min || +raw > max) {
    throw invalidParameter(name, `must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

function refuseOtherQuery(req: Request, allowed: readonly string[]): void {
  const extra = Object.keys(req.query).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw invalidParameter(extra, 'is not a parameter of this route');
}

/** `Last-Event-ID` (header, or `lastEventId` for a client that opens a new EventSource). */
function lastEventIdOf(req: Request): bigint | undefined {
  const raw = req.get('last-event-id') ?? req.query.lastEventId;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,18}$/.test(raw)) {
    throw invalidParameter('lastEventId', 'must be the id of an event of this stream');
  }
  return BigInt(raw);
}

/**
 * The Console's live stream, inbox and member suggestions (docs/public-api.md §8).
 * Every route but the stream itself takes the member's session or Console access token; the
 * stream (an `EventSource`, which cannot send headers) takes a single-use ticket obtained with it.
 */
export function liveRouter(ctx: ServerContext, hub: ConsoleHub): Router {
  const member = requireSessionOr(ctx, consoleOnly);
  return Router()
    .post(`${ENV}/live/tickets`, member, async (req, res) => {
      refuseOtherQuery(req, []);
      const place = owner(req);
      const { ticket, expiresAt } = await issueStreamTicket(ctx.knex, place);
      const base = `/v1/project/${encodeURIComponent(String(req.params.projectName))}/environment/${encodeURIComponent(String(req.params.environmentName))}`;
      res.status(201).json({
        object: 'live-stream-ticket',
        ticket,
        expiresAt: expiresAt.toISOString(),
        url: `${base}/live?ticket=${ticket}`,
      });
    })
    .get(
      `${ENV}/live`,
      // A reader that can send headers may use its token like on the other routes.
      (req, res, next) => (req.get('authorization') ? member(req, res, next) : next()),
      async (req, res) => {
        refuseOtherQuery(req, ['ticket', 'lastEventId']);
        if (req.platformAuth) {
          const project = required(req.project, 'project');
          const environment = required(req.environment, 'environment');
          const userId = req.platformAuth.userId;
          const access = await noteAccess(ctx.knex, project, environment, userId);
          await hub.subscribe(
            res,
            {
              userId,
              projectId: project.id,
              environmentId: environment.id,
              admin: access.admin,
              hidden: access.hidden,
            },
            lastEventIdOf(req),
          );
          return;
        }
        const ticket = req.query.ticket;
        if (typeof ticket !== 'string' || ticket === '') {
          throw unauthorized('Open the stream with a ticket from POST …/live/tickets.');
        }
        const lastEventId = lastEventIdOf(req);
        const held = await consumeStreamTicket(ctx.knex, ticket);
        if (!held)
          throw unauthorized('This stream ticket is unknown, used or expired; get a new one.');
        const projectName = String(req.params.projectName);
        const project = await findProjectByName(ctx.knex, projectName);
        const environment =
          project &&
          (await findEnvironmentByName(ctx.knex, project.id, String(req.params.environmentName)));
        // A ticket of another project or environment opens nothing here: the unknown-project answer.
        if (!project || project.id !== held.projectId || environment?.id !== held.environmentId) {
          throw projectNotAccessible(projectName);
        }
        if (!(await findPermissionLevel(ctx.knex, project.id, held.userId))) {
          throw projectNotAccessible(projectName);
        }
        const access = await noteAccess(ctx.knex, project, environment, held.userId);
        await hub.subscribe(
          res,
          { ...held, admin: access.admin, hidden: access.hidden },
          lastEventId,
        );
      },
    )
    .put(`${ENV}/presence`, member, jsonBody(), async (req, res) => {
      refuseOtherQuery(req, []);
      const body = req.body as Record<string, unknown> | undefined;
      const extra = Object.keys(body ?? {}).find(
        (k) => k !== 'collection' && k !== 'recordId' && k !== 'streamId',
      );
      if (extra !== undefined) throw invalidBody(extra, 'is not a property');
      const { collection, recordId, streamId } = body ?? {};
      if (typeof collection !== 'string' || collection === '' || collection.length > 255) {
        throw invalidBody('collection', 'must be a collection name');
      }
      if (typeof recordId !== 'string' || recordId === '' || recordId.length > 1024) {
        throw invalidBody('recordId', 'must be a non-empty string');
      }
      if (streamId !== undefined && (typeof streamId !== 'string' || streamId.length > 64)) {
        throw invalidBody('streamId', 'must be the streamId of a `ready` event of your stream');
      }
      const place = owner(req);
      if (streamId !== undefined) await assertOwnStream(ctx.knex, streamId, place);
      await heartbeatPresence(
        ctx.knex,
        place.userId,
        { ...place, collectionName: collection, recordId },
        streamId ?? null,
      );
      res.status(204).end();
    })
    .delete(`${ENV}/presence`, member, async (req, res) => {
      refuseOtherQuery(req, []);
      const place = owner(req);
      await leavePresence(ctx.knex, place.userId, place);
      res.status(204).end();
    })
    .get(`${ENV}/inbox`, member, async (req, res) => {
      refuseOtherQuery(req, ['limit', 'cursor', 'unread']);
      const limit = intParam(req, 'limit', 20, 1, 100);
      const cursor = req.query.cursor;
      if (cursor !== undefined && typeof cursor !== 'string') {
        throw invalidParameter('cursor', 'must be a nextCursor of a previous page');
      }
      const unread = req.query.unread;
      if (unread !== undefined && unread !== 'true' && unread !== 'false') {
        throw invalidParameter('unread', 'must be true or false');
      }
      const place = owner(req);
      const { items, hasMore } = await listInbox(ctx.knex, place, {
        limit,
        beforeId: cursor === undefined ? undefined : decodeIdCursor(cursor),
        unreadOnly: unread === 'true',
      });
      const last = items[items.length - 1];
      res.json({
        data: items,
        hasMore,
        nextCursor: hasMore && last ? encodeIdCursor(last.id) : null,
        unreadCount: await unreadCount(ctx.knex, place),
      });
    })
    .get(`${ENV}/inbox/unread-count`, member, async (req, res) => {
      refuseOtherQuery(req, []);
      res.json({ unreadCount: await unreadCount(ctx.knex, owner(req)) });
    })
    .post(`${ENV}/inbox/read-all`, member, async (req, res) => {
      refuseOtherQuery(req, []);
      res.json({ marked: await markInboxRead(ctx.knex, owner(req)) });
    })
    .post(`${ENV}/inbox/:itemId/read`, member, async (req, res) => {
      refuseOtherQuery(req, []);
      const raw = String(req.params.itemId);
      if (!/^\d{1,9}$/.test(raw) || +raw > 2_147_483_647) {
        throw invalidParameter('itemId', 'must be the id of an inbox item');
      }
      if (!(await markInboxItemRead(ctx.knex, owner(req), Number(raw)))) {
        throw new ApiError(404, 'inbox_item_not_found', `Your inbox here has no item ${raw}.`);
      }
      res.status(204).end();
    })
    .get('/v1/project/:projectName/member-suggestions', member, async (req, res) => {
      refuseOtherQuery(req, ['prefix', 'limit']);
      const prefix = req.query.prefix;
      if (typeof prefix !== 'string' || prefix.length > 100) {
        throw invalidParameter(
          'prefix',
          'is required: the start of a name or email, at most 100 characters',
        );
      }
      const limit = intParam(req, 'limit', 10, 1, 100);
      const data = await suggestMembers(
        ctx.knex,
        required(req.project, 'project').id,
        prefix,
        limit,
      );
      res.json({ data });
    });
}
