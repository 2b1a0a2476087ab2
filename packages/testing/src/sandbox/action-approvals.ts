import type { Express, Request, Response } from 'express';
import type { PlatformTokenClaims } from './oauth';

/** An approval request an MCP server filed for a user (platform protocol §10). */
export interface SandboxActionApproval {
  id: string;
  requesterId: number;
  renderingId: number;
  actionName: string;
  collectionName: string;
  recordIds: string[];
  inputs: unknown[];
  comments: string[];
}

/**
 * `POST /api/action-approvals` and `POST /api/action-approvals/:id/comments`: authenticated by
 * the user's platform token (bearer) and the `forest-rendering-id` header; recorded for tests.
 */
export function mountApprovalRoutes(
  app: Express,
  verifyAccessToken: (token: string) => PlatformTokenClaims | null,
): SandboxActionApproval[] {
  const approvals: SandboxActionApproval[] = [];
  const caller = (request: Request, response: Response): PlatformTokenClaims | null => {
    const token = request.get('authorization')?.match(/^Bearer (.+)$/i)?.[1] ?? '';
    const claims = verifyAccessToken(token);
    if (!claims || Number(request.get('forest-rendering-id')) !== claims.meta.renderingId) {
      response.status(401).json({
        errors: [{ detail: 'A platform token and its forest-rendering-id are required.' }],
      });
      return null;
    }
    return claims;
  };

  app.post('/api/action-approvals', (request, response) => {
    const claims = caller(request, response);
    if (!claims) return;
    const attributes = (request.body?.data?.attributes ?? {}) as Record<string, unknown>;
    if (
      typeof attributes.action_name !== 'string' ||
      typeof attributes.collection_name !== 'string' ||
      !Array.isArray(attributes.record_ids)
    ) {
      response.status(400).json({
        errors: [{ detail: 'data.attributes needs action_name, collection_name and record_ids.' }],
      });
      return;
    }
    const approval: SandboxActionApproval = {
      id: String(approvals.length + 1),
      requesterId: claims.userId,
      renderingId: claims.meta.renderingId,
      actionName: attributes.action_name,
      collectionName: attributes.collection_name,
      recordIds: attributes.record_ids.map(String),
      inputs: Array.isArray(attributes.inputs) ? attributes.inputs : [],
      comments: [],
    };
    approvals.push(approval);
    response.json({ data: { type: 'action-approvals', id: approval.id, attributes } });
  });

  app.post('/api/action-approvals/:id/comments', (request, response) => {
    if (!caller(request, response)) return;
    const approval = approvals.find((candidate) => candidate.id === request.params.id);
    const comment = request.body?.data?.attributes?.comment;
    if (!approval || typeof comment !== 'string') {
      response.status(404).json({ errors: [{ detail: 'No such approval, or no comment.' }] });
      return;
    }
    approval.comments.push(comment);
    response.json({ data: { type: 'comments', id: String(approval.comments.length) } });
  });

  return approvals;
}
