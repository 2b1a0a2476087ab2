import jwt from 'jsonwebtoken';
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import { insertActivityLogs } from './activity-log-writer';
import { publishConsoleEvent } from './console-events';
import { addApprovalInboxItems, closeApprovalInboxItems } from './inbox';
import { schemaActions, type SchemaAction } from './environment-schema';
import { environmentSecretOf } from './model/environment-secrets';
import type { ActionApprovalInputJson, ActionRights, RoleRights } from '@canopy/platform-protocol';

/** The states of an approval request. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

/** Who calls, where: a member of the environment's project, in one of their teams. */
export interface ApprovalCaller {
  userId: number;
  teamId: number;
  environment: { id: number; projectId: number; type: string };
}

/** What a requester files. */
export interface ApprovalInput {
  actionName: string;
  collectionName: string;
  smartActionId: string | null;
  recordIds: string[];
  inputs: ActionApprovalInputJson[];
  request: Record<string, unknown> | null;
  comment?: string;
}

/** How long a signed approval request stays valid: the approver's console sends it at once. */
const SIGNED_REQUEST_SECONDS = 600;

const notFound = (id: unknown) =>
  new ApiError(
    404,
    'approval_not_found',
    `No action approval ${String(id)} exists in this environment.`,
  );

/**
 * The rights of the caller's role in the project: `undefined` when the caller is no member or has
 * no role, and then every approval right is refused.
 */
async function roleRightsOf(
  knex: Knex,
  projectId: number,
  userId: number,
): Promise<RoleRights | undefined> {
  const row = await knex('project_memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId })
    .first('r.rights');
  return row ? ((row.rights ?? {}) as RoleRights) : undefined;
}

/**
 * What the caller's role may do with one action of the environment's schema (callers look the
 * action up first: one the schema lacks is refused, never granted). Nothing at all when the caller
 * has no role. A right the role does not mention follows the roles' documented defaults, the same
 * the agents enforce through the environment permissions: trigger, approve and self-approve are
 * granted unless set to `false`; an approval is required only when `approvalRequired` is `true`. Conditions narrow rights to
 * records, which only the agent can read: it checks them when the action runs.
 */
function actionRightsOf(rights: RoleRights | undefined, action: SchemaAction) {
  if (!rights) {
    return { trigger: false, requiresApproval: false, approve: false, selfApprove: false };
  }
  const of: ActionRights = rights.actions?.[action.collection]?.[action.name] ?? {};
  return {
    trigger: of.triggerEnabled !== false,
    requiresApproval: of.approvalRequired === true,
    approve: of.userApprovalEnabled !== false,
    selfApprove: of.selfApprovalEnabled !== false,
  };
}

const findAction = (actions: SchemaAction[], collection: string, name: string) =>
  actions.find((action) => action.collection === collection && action.name === name);

/** Whether the caller may approve this request: the role's approve right, self-approve for one's own. */
function mayApprove(
  rights: RoleRights | undefined,
  actions: SchemaAction[],
  caller: Pick<ApprovalCaller, 'userId'>,
  approval: { requester_id: number; collection_name: string; action_name: string },
): { allowed: boolean; reason?: string } {
  const action = findAction(actions, approval.collection_name, approval.action_name);
  if (!rights) return { allowed: false, reason: 'You have no role in this project.' };
  if (!action) {
    return {
      allowed: false,
      reason: `The environment's schema has no action "${approval.action_name}" in the collection "${approval.collection_name}": it cannot be approved.`,
    };
  }
  const may = actionRightsOf(rights, action);
  if (!may.approve) {
    return {
      allowed: false,
      reason: `Your role may not approve the action "${approval.action_name}".`,
    };
  }
  if (approval.requester_id === caller.userId && !may.selfApprove) {
    return {
      allowed: false,
      reason: `Your role may not approve its own requests for the action "${approval.action_name}".`,
    };
  }
  return { allowed: true };
}

/** What approving needs to know of the caller and the environment, read on `knex` (or a transaction). */
async function approvalContext(knex: Knex, caller: ApprovalCaller) {
  const rights = await roleRightsOf(knex, caller.environment.projectId, caller.userId);
  return { rights, actions: await schemaActions(knex, caller.environment.id) };
}

/**
 * The schema's action a requester may file an approval request for: it exists in the collection,
 * the requester's role may trigger it and must have it approved. Anything else is refused.
 */
function requestableAction(
  context: { rights: RoleRights | undefined; actions: SchemaAction[] },
  caller: ApprovalCaller,
  input: ApprovalInput,
): SchemaAction {
  const named = `the action "${input.actionName}" of the collection "${input.collectionName}"`;
  if (caller.environment.type === 'development') {
    throw new ApiError(
      403,
      'forbidden',
      `Actions run without approval in a development environment: run ${named} directly.`,
    );
  }
  const action = findAction(context.actions, input.collectionName, input.actionName);
  if (!action) {
    throw new ApiError(
      404,
      'not_found',
      `The environment's schema has no action "${input.actionName}" in the collection "${input.collectionName}": approval requests are filed only for the actions its agent declares.`,
    );
  }
  if (input.smartActionId !== null && input.smartActionId !== action.id) {
    throw new ApiError(
      400,
      'invalid_body',
      `Body property "data.attributes.smart_action_id" must be "${action.id}", the id of ${named} in the environment's schema.`,
    );
  }
  const may = actionRightsOf(context.rights, action);
  if (!may.trigger) {
    throw new ApiError(403, 'forbidden', `Your role may not trigger ${named}.`);
  }
  if (!may.requiresApproval) {
    throw new ApiError(
      403,
      'forbidden',
      `Your role does not need an approval for ${named}: only roles that must have it approved file requests.`,
    );
  }
  return action;
}

const log = (
  trx: Knex.Transaction,
  caller: ApprovalCaller,
  action: 'createApproval' | 'approveApproval' | 'rejectApproval',
  row: { collection_name: string; action_name: string; record_ids: string[] },
  label: string,
) =>
  insertActivityLogs(trx, caller.environment.projectId, [
    {
      environmentId: caller.environment.id,
      userId: caller.userId,
      teamId: caller.teamId,
      type: 'write',
      action,
      collectionName: row.collection_name,
      label: `${label} "${row.action_name}"`,
      recordIds: row.record_ids,
    },
  ]);

/** What an approval event tells of a request: what the approvals list shows, without values. */
interface AnnouncedApproval {
  id: number | string;
  requester_id: number;
  collection_name: string;
  action_name: string;
  record_ids: string[];
}

/**
 * The members of the project whose role may decide the request, by the very check a decision
 * passes ({@link mayApprove}): the requester among them only when its role may self-approve.
 */
async function approversOf(
  trx: Knex.Transaction,
  projectId: number,
  actions: SchemaAction[],
  approval: AnnouncedApproval,
): Promise<number[]> {
  const members: { user_id: number; rights: RoleRights | null }[] = await trx(
    'project_memberships as m',
  )
    .join('roles as r', 'r.id', 'm.role_id')
    .where('m.project_id', projectId)
    .orderBy('m.user_id')
    .select('m.user_id', 'r.rights');
  return members
    .filter(
      (member) =>
        mayApprove(member.rights ?? {}, actions, { userId: member.user_id }, approval).allowed,
    )
    .map((member) => member.user_id);
}

/**
 * The live side of a request or decision, in its transaction (docs/public-api.md §8): a request
 * lands, unread, in the inbox of each member who may decide it (but its requester), and an
 * `approval-requested` event goes to them and to the requester; a decision marks those inbox
 * items read and sends `approval-decided` to the requester, the members who may decide it now and
 * those who had it in their inbox. One event per recipient: nobody else, of no other environment.
 */
async function announceApproval(
  trx: Knex.Transaction,
  environment: ApprovalCaller['environment'],
  actions: SchemaAction[],
  approval: AnnouncedApproval,
  decision?: { status: 'approved' | 'rejected'; deciderId: number },
): Promise<void> {
  const approvers = await approversOf(trx, environment.projectId, actions, approval);
  const place = { projectId: environment.projectId, environmentId: environment.id };
  // The id is a bigint column, read as a string: the events carry it as a number, as the inbox.
  const approvalId = Number(approval.id);
  const base = {
    approvalId,
    collection: approval.collection_name,
    actionName: approval.action_name,
    recordIds: approval.record_ids,
    requesterId: approval.requester_id,
  };
  if (!decision) {
    const items = await addApprovalInboxItems(
      trx,
      { ...place, approvalId, requesterId: approval.requester_id },
      approvers.filter((id) => id !== approval.requester_id),
    );
    for (const userId of new Set([approval.requester_id, ...approvers])) {
      await publishConsoleEvent(trx, {
        ...place,
        userId,
        event: 'approval-requested',
        data: { ...base, status: 'pending', inboxItemId: items.get(userId) ?? null },
      });
    }
    return;
  }
  const holders = await closeApprovalInboxItems(trx, approvalId);
  for (const userId of new Set([approval.requester_id, ...approvers, ...holders])) {
    await publishConsoleEvent(trx, {
      ...place,
      userId,
      event: 'approval-decided',
      data: { ...base, ...decision },
    });
  }
}

/**
 * Files an approval request (and its first comment), logged as `createApproval`: only for an
 * action of the environment's schema that the requester's role may trigger and must have approved
 * ({@link requestableAction}); its `smart_action_id` is the schema's.
 */
export async function createApproval(
  knex: Knex,
  caller: ApprovalCaller,
  input: ApprovalInput,
): Promise<string> {
  // Every read runs on the transaction: the embedded store has one connection.
  return knex.transaction(async (trx) => {
    const context = await approvalContext(trx, caller);
    const action = requestableAction(context, caller, input);
    const [row] = await trx('action_approvals')
      .insert({
        project_id: caller.environment.projectId,
        environment_id: caller.environment.id,
        team_id: caller.teamId,
        requester_id: caller.userId,
        status: 'pending',
        action_name: input.actionName,
        collection_name: input.collectionName,
        smart_action_id: action.id,
        record_ids: JSON.stringify(input.recordIds),
        inputs: JSON.stringify(input.inputs),
        request_attributes: input.request === null ? null : JSON.stringify(input.request),
      })
      .returning(['id', 'requester_id', 'collection_name', 'action_name', 'record_ids']);
    if (input.comment) {
      await trx('action_approval_comments').insert({
        approval_id: row.id,
        user_id: caller.userId,
        comment: input.comment,
      });
    }
    await log(trx, caller, 'createApproval', row, 'requested an approval of');
    await announceApproval(trx, caller.environment, context.actions, row);
    return String(row.id);
  });
}

async function findRow(knex: Knex | Knex.Transaction, caller: ApprovalCaller, id: number) {
  const row = await knex('action_approvals')
    .where({ id, environment_id: caller.environment.id })
    .first();
  if (!row) throw notFound(id);
  return row;
}

/** Adds a comment to a request of this environment. */
export async function addApprovalComment(
  knex: Knex,
  caller: ApprovalCaller,
  id: number,
  comment: string,
): Promise<string> {
  await findRow(knex, caller, id);
  const [row] = await knex('action_approval_comments')
    .insert({ approval_id: id, user_id: caller.userId, comment })
    .returning('id');
  return String(row.id);
}

const person = (prefix: string) => (row: Record<string, unknown>) =>
  row[`${prefix}_id`] === null || row[`${prefix}_id`] === undefined
    ? null
    : {
        id: String(row[`${prefix}_id`]),
        email: row[`${prefix}_email`],
        name: `${String(row[`${prefix}_first_name`] ?? '')} ${String(row[`${prefix}_last_name`] ?? '')}`.trim(),
      };

/** The requests of the caller's environment, newest first, with comments and what the caller may do. */
export async function listApprovals(
  knex: Knex,
  caller: ApprovalCaller,
  filter: { status?: ApprovalStatus; mine?: boolean; id?: number },
): Promise<Record<string, unknown>[]> {
  const query = knex('action_approvals as a')
    .join('users as q', 'q.id', 'a.requester_id')
    .leftJoin('users as v', 'v.id', 'a.reviewer_id')
    .where('a.environment_id', caller.environment.id)
    .orderBy('a.id', 'desc')
    .limit(200)
    .select(
      'a.*',
      'q.email as requester_email',
      'q.first_name as requester_first_name',
      'q.last_name as requester_last_name',
      'v.email as reviewer_email',
      'v.first_name as reviewer_first_name',
      'v.last_name as reviewer_last_name',
    );
  if (filter.status) query.where('a.status', filter.status);
  if (filter.mine) query.where('a.requester_id', caller.userId);
  if (filter.id !== undefined) query.where('a.id', filter.id);
  const rows = await query;
  const context = rows.length ? await approvalContext(knex, caller) : undefined;
  const comments = rows.length
    ? await knex('action_approval_comments as c')
        .join('users as u', 'u.id', 'c.user_id')
        .whereIn(
          'c.approval_id',
          rows.map((row) => row.id),
        )
        .orderBy('c.id')
        .select('c.*', 'u.email', 'u.first_name', 'u.last_name')
    : [];
  const result = [];
  for (const row of rows) {
    const approve = mayApprove(context!.rights, context!.actions, caller, row);
    result.push({
      type: 'action-approvals',
      id: String(row.id),
      attributes: {
        status: row.status,
        action_name: row.action_name,
        collection_name: row.collection_name,
        smart_action_id: row.smart_action_id,
        record_ids: row.record_ids,
        inputs: row.inputs,
        requester: person('requester')(row),
        reviewer: person('reviewer')(row),
        reviewed_at: row.reviewed_at?.toISOString() ?? null,
        outcome: row.outcome,
        outcome_message: row.outcome_message,
        created_at: row.created_at.toISOString(),
        can_approve: row.status === 'pending' && approve.allowed,
        comments: comments
          .filter((comment) => String(comment.approval_id) === String(row.id))
          .map((comment) => ({
            id: String(comment.id),
            comment: comment.comment,
            created_at: comment.created_at.toISOString(),
            author: {
              id: String(comment.user_id),
              email: comment.email,
              name: `${comment.first_name ?? ''} ${comment.last_name ?? ''}`.trim(),
            },
          })),
      },
    });
  }
  return result;
}

/** One request of the caller's environment. */
export async function getApproval(
  knex: Knex,
  caller: ApprovalCaller,
  id: number,
): Promise<Record<string, unknown>> {
  const [approval] = await listApprovals(knex, caller, { id });
  if (!approval) throw notFound(id);
  return approval;
}

/**
 * Approves or rejects a pending request (approve right of the caller's role; self-approve for
 * one's own; the action still in the environment's schema), with an optional comment, logged as
 * `approveApproval` / `rejectApproval`. An approval answers the signed approval request: a JWT
 * (HS256, the environment's secret) whose payload is the replacement action body naming the
 * collection, the action, the records, the values and the requester ({@link approvalRequestBody}).
 * Every read runs on the transaction: the embedded store has one connection, and a read through
 * the pool would wait for the connection the transaction holds.
 */
export async function reviewApproval(
  knex: Knex,
  caller: ApprovalCaller,
  id: number,
  decision: 'approved' | 'rejected',
  comment: string | undefined,
): Promise<{ signedApprovalRequest?: string }> {
  return knex.transaction(async (trx) => {
    const row = await trx('action_approvals')
      .where({ id, environment_id: caller.environment.id })
      .forUpdate()
      .first();
    if (!row) throw notFound(id);
    const { rights, actions } = await approvalContext(trx, caller);
    const verdict = mayApprove(rights, actions, caller, row);
    if (!verdict.allowed) throw new ApiError(403, 'forbidden', verdict.reason!);
    if (row.status !== 'pending') {
      throw new ApiError(
        409,
        'conflict',
        `Action approval ${id} was already ${String(row.status)}.`,
      );
    }
    const secret =
      decision === 'approved' ? await environmentSecretOf(trx, caller.environment.id) : undefined;
    if (decision === 'approved' && secret === undefined) {
      throw new ApiError(
        409,
        'conflict',
        'The platform cannot sign approved requests for this environment: its secret was issued before secrets were sealed. Rotate the environment secret once (management API) and restart its agent.',
      );
    }
    await trx('action_approvals')
      .where({ id })
      .update({ status: decision, reviewer_id: caller.userId, reviewed_at: new Date() });
    if (comment) {
      await trx('action_approval_comments').insert({
        approval_id: id,
        user_id: caller.userId,
        comment,
      });
    }
    await log(
      trx,
      caller,
      decision === 'approved' ? 'approveApproval' : 'rejectApproval',
      row,
      decision === 'approved' ? 'approved the action' : 'rejected the action',
    );
    await announceApproval(trx, caller.environment, actions, row, {
      status: decision,
      deciderId: caller.userId,
    });
    if (decision === 'rejected') return {};
    const action = findAction(actions, row.collection_name, row.action_name)!;
    return {
      signedApprovalRequest: signApprovalRequest({ ...row, smart_action_id: action.id }, secret!),
    };
  });
}

/**
 * The replacement body the agent runs (agent protocol §9.2 step 2): the requester's call
 * (selection, values), or one rebuilt from the request's records and inputs, and always, set by
 * the platform, `collection_name`, `smart_action_id` (the action's id in the environment's
 * schema), `action_name`, `ids`, `values` and `requester_id`. Agents refuse a signed body whose
 * collection or action is not the one of the route it is sent to.
 */
export function approvalRequestBody(row: {
  requester_id: number;
  collection_name: string;
  action_name: string;
  smart_action_id: string;
  record_ids: string[];
  inputs: { name: string; value?: unknown }[];
  request_attributes: Record<string, unknown> | null;
}): { data: { type: string; attributes: Record<string, unknown> } } {
  const base: Record<string, unknown> = {
    all_records: false,
    all_records_ids_excluded: [],
    ...row.request_attributes,
  };
  return {
    data: {
      type: 'custom-action-requests',
      attributes: {
        ...base,
        ids: Array.isArray(base.ids) ? base.ids : row.record_ids,
        values:
          typeof base.values === 'object' && base.values !== null && !Array.isArray(base.values)
            ? base.values
            : Object.fromEntries(row.inputs.map((input) => [input.name, input.value ?? null])),
        collection_name: row.collection_name,
        smart_action_id: row.smart_action_id,
        action_name: row.action_name,
        requester_id: row.requester_id,
        signed_approval_request: null,
      },
    },
  };
}

function signApprovalRequest(row: Parameters<typeof approvalRequestBody>[0], secret: string) {
  return jwt.sign(approvalRequestBody(row), secret, {
    algorithm: 'HS256',
    expiresIn: SIGNED_REQUEST_SECONDS,
  });
}

/** Records how the run of an approved request went (by its reviewer). */
export async function recordApprovalOutcome(
  knex: Knex,
  caller: ApprovalCaller,
  id: number,
  outcome: 'succeeded' | 'failed',
  message: string | undefined,
): Promise<void> {
  const row = await findRow(knex, caller, id);
  if (row.status !== 'approved' || row.reviewer_id !== caller.userId) {
    throw new ApiError(
      409,
      'conflict',
      `Only the approver of action approval ${id} records its outcome, once it is approved.`,
    );
  }
  await knex('action_approvals')
    .where({ id })
    .update({ outcome, outcome_message: message ?? null });
}
