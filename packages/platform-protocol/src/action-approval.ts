/**
 * An action approval request as the platform answers it (`/api/action-approvals`, a JSON:API
 * resource of type `action-approvals`): what the requester asked, who reviewed it, the comments,
 * and whether the caller may approve it. admin-api-server builds it; front ends read it.
 */
export type ActionApprovalStatus = 'pending' | 'approved' | 'rejected';

/** A person as approvals name them. */
export interface ApprovalPersonJson {
  id: string;
  email: string;
  name: string;
}

/**
 * One value of the action's form as filed: the field's name, type and value, and the field's
 * record reference and widget when it has them, as the agent's form answer describes the field
 * (front ends show a record field's value as the record's id, a price editor's in its currency).
 */
export interface ActionApprovalInputJson {
  name: string;
  type?: unknown;
  /** A record field's target (`customers.id`): the value is that record's id. */
  reference?: string | null;
  widgetEdit?: { name: string; parameters?: Record<string, unknown> | null } | null;
  value?: unknown;
}

export interface ActionApprovalCommentJson {
  id: string;
  comment: string;
  created_at: string;
  author: ApprovalPersonJson;
}

export interface ActionApprovalResource {
  type: 'action-approvals';
  id: string;
  attributes: {
    status: ActionApprovalStatus;
    action_name: string;
    collection_name: string;
    smart_action_id: string | null;
    record_ids: string[];
    /** The action form's values as filed. */
    inputs: ActionApprovalInputJson[];
    requester: ApprovalPersonJson | null;
    reviewer: ApprovalPersonJson | null;
    reviewed_at: string | null;
    outcome: 'succeeded' | 'failed' | null;
    outcome_message: string | null;
    created_at: string;
    /** The caller's approve right on this request (pending only). */
    can_approve: boolean;
    comments: ActionApprovalCommentJson[];
  };
}
