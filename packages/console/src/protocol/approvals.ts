/**
 * The platform's action approvals (`/api/action-approvals`, see admin-api-server's OpenAPI
 * document): file a request after the agent answered `CustomActionRequiresApprovalError`, list
 * the environment's queue, approve (the platform answers the signed approval request the agent
 * verifies) or reject with a comment, record the outcome, through the Console's platform client.
 */
import type {
  ActionApprovalInputJson,
  ActionApprovalResource,
  ActionApprovalStatus,
  ApprovalPersonJson,
} from '@canopy/platform-protocol';
import type { ActionField } from './actions';
import type { PlatformClient } from './platform-client';

export type ApprovalPerson = ApprovalPersonJson;

/** A value of the action's form as filed (its field's type, record reference and widget). */
export type ApprovalInput = ActionApprovalInputJson;

export interface ActionApproval {
  id: string;
  status: ActionApprovalStatus;
  actionName: string;
  collectionName: string;
  smartActionId: string | null;
  recordIds: string[];
  inputs: ApprovalInput[];
  requester: ApprovalPerson | null;
  reviewer: ApprovalPerson | null;
  reviewedAt: string | null;
  outcome: 'succeeded' | 'failed' | null;
  outcomeMessage: string | null;
  createdAt: string;
  canApprove: boolean;
  comments: { id: string; comment: string; createdAt: string; author: ApprovalPerson }[];
}

export interface ApprovalsApiOptions {
  /** The Console's platform client (token, 401 policy, error answers). */
  platform: PlatformClient;
  project: string;
  environment: string;
  /** The team the user works in (rendering ids are team ids). */
  renderingId?: number;
}

/** The API's item shape → the console's. */
export function decodeApproval(raw: ActionApprovalResource): ActionApproval {
  const a = raw.attributes;
  return {
    id: raw.id,
    status: a.status,
    actionName: a.action_name,
    collectionName: a.collection_name,
    smartActionId: a.smart_action_id,
    recordIds: a.record_ids,
    inputs: a.inputs,
    requester: a.requester,
    reviewer: a.reviewer,
    reviewedAt: a.reviewed_at,
    outcome: a.outcome,
    outcomeMessage: a.outcome_message,
    createdAt: a.created_at,
    canApprove: a.can_approve,
    comments: a.comments.map((comment) => ({
      id: comment.id,
      comment: comment.comment,
      createdAt: comment.created_at,
      author: comment.author,
    })),
  };
}

export class ApprovalsApi {
  constructor(private readonly options: ApprovalsApiOptions) {}

  private call<T>(method: string, path: string, body?: unknown, query = ''): Promise<T> {
    const where = new URLSearchParams({
      project: this.options.project,
      environment: this.options.environment,
    }).toString();
    return this.options.platform.json<T>(`/api/action-approvals${path}?${where}${query}`, {
      method,
      headers: this.options.renderingId
        ? { 'forest-rendering-id': String(this.options.renderingId) }
        : {},
      json: body,
    });
  }

  /** Files a request: the action call that needs approval (its attributes), and a comment. */
  async request(input: {
    actionName: string;
    collectionName: string;
    smartActionId?: string | null;
    recordIds: string[];
    values: Record<string, unknown>;
    /** The form's fields by name: each input is filed with its field's type and widget. */
    fields?: Pick<ActionField, 'field' | 'type' | 'reference' | 'widgetEdit'>[];
    request: Record<string, unknown>;
    comment?: string;
  }): Promise<ActionApproval> {
    const body = await this.call<{ data: ActionApprovalResource }>('POST', '', {
      data: {
        type: 'action-approvals',
        attributes: {
          status: null,
          action_name: input.actionName,
          collection_name: input.collectionName,
          smart_action_id: input.smartActionId ?? null,
          record_ids: input.recordIds,
          inputs: Object.entries(input.values).map(([name, value]): ApprovalInput => {
            const field = input.fields?.find((candidate) => candidate.field === name);
            return {
              name,
              type: field?.type ?? null,
              ...(field?.reference ? { reference: field.reference } : {}),
              ...(field?.widgetEdit ? { widgetEdit: field.widgetEdit } : {}),
              value,
            };
          }),
          request: input.request,
          ...(input.comment ? { comment: input.comment } : {}),
        },
      },
    });
    return decodeApproval(body.data);
  }

  async list(filter: { status?: ActionApproval['status']; mine?: boolean } = {}) {
    const query = `${filter.status ? `&status=${filter.status}` : ''}${filter.mine ? '&mine=true' : ''}`;
    const body = await this.call<{ data: ActionApprovalResource[] }>('GET', '', undefined, query);
    return body.data.map(decodeApproval);
  }

  /** Approves: the platform answers the signed approval request to send to the agent. */
  async approve(id: string, comment?: string) {
    const body = await this.call<{
      data: ActionApprovalResource;
      meta: { signed_approval_request: string };
    }>('POST', `/${encodeURIComponent(id)}/approve`, comment ? { comment } : {});
    return { approval: decodeApproval(body.data), signed: body.meta.signed_approval_request };
  }

  async reject(id: string, comment?: string) {
    const body = await this.call<{ data: ActionApprovalResource }>(
      'POST',
      `/${encodeURIComponent(id)}/reject`,
      comment ? { comment } : {},
    );
    return decodeApproval(body.data);
  }

  async comment(id: string, comment: string) {
    await this.call('POST', `/${encodeURIComponent(id)}/comments`, {
      data: { type: 'comments', attributes: { comment } },
    });
  }

  async recordOutcome(id: string, outcome: 'succeeded' | 'failed', message?: string) {
    const body = await this.call<{ data: ActionApprovalResource }>(
      'POST',
      `/${encodeURIComponent(id)}/outcome`,
      { outcome, ...(message ? { message } : {}) },
    );
    return decodeApproval(body.data);
  }
}

/** The body the approver sends the agent: only the signed request (platform protocol §9). */
export function signedActionBody(signed: string) {
  return {
    data: { type: 'custom-action-requests', attributes: { signed_approval_request: signed } },
  };
}
