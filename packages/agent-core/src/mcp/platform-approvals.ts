import type { ActionApprovalInputJson } from '@canopy/platform-protocol';
import type { PlatformHttpClient } from '../platform/platform-http-client';

/** An approval request for an action the user may not run alone (platform protocol §10). */
export interface ApprovalRequest {
  actionName: string;
  collectionName: string;
  recordIds: string[];
  inputs: ActionApprovalInputJson[];
  /** Why the action is asked for (the model's `reasoning`), filed as a comment. */
  comment?: string;
}

/**
 * Files an approval request on the platform as the user (their platform token as bearer, the
 * rendering in `forest-rendering-id`) and comments it with the reasoning. Returns its id.
 */
export async function requestApproval(
  http: PlatformHttpClient,
  serverToken: string,
  renderingId: number,
  request: ApprovalRequest,
): Promise<string> {
  const headers = { 'forest-rendering-id': String(renderingId) };
  const { body } = await http.request<{ data?: { id?: unknown } }>('/api/action-approvals', {
    method: 'POST',
    auth: { bearer: serverToken },
    headers,
    retries: 0,
    body: {
      data: {
        type: 'action-approvals',
        attributes: {
          status: null,
          action_name: request.actionName,
          collection_name: request.collectionName,
          record_ids: request.recordIds,
          inputs: request.inputs,
        },
      },
    },
  });
  const id = body?.data?.id;
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new Error('The platform filed the approval request without returning its id.');
  }
  if (request.comment) {
    await http.request(`/api/action-approvals/${encodeURIComponent(String(id))}/comments`, {
      method: 'POST',
      auth: { bearer: serverToken },
      headers,
      retries: 0,
      body: { data: { attributes: { comment: request.comment } } },
    });
  }
  return String(id);
}
