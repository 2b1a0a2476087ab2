import * as body from '../routes/action-approvals/schemas';
import type { JsonSchema } from '../validation/ajv';
import { ID_SCHEMA } from '../validation/input-rules';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** Errors of `/api/*` routes come in the shape agents read. */
const AGENT_ERROR: JsonSchema = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['detail'],
        properties: { detail: { type: 'string' }, status: { type: 'integer' } },
      },
    },
  },
};
const error = (description: string) => ({ description, content: json(AGENT_ERROR) });
const ERRORS = {
  '400': error(
    'Invalid body, query or header (the detail names it); `forest-environment-id` missing with a session token',
  ),
  '401': error('Missing, invalid, expired or revoked token'),
  '403': error(
    '`forest-rendering-id` is not one of your teams, or your role may not do this (file a request for the action, trigger it, approve it, approve your own)',
  ),
  '404': error(
    "Unknown environment, or one of another project (same answer); unknown approval of this environment; an action the environment's schema does not have",
  ),
  '503': error(
    'The store is busy (the embedded store serves one request at a time): retry in a moment',
  ),
};
const PERSON: JsonSchema = {
  type: ['object', 'null'],
  properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
};
const APPROVAL: JsonSchema = {
  type: 'object',
  required: ['type', 'id', 'attributes'],
  properties: {
    type: { const: 'action-approvals' },
    id: { type: 'string' },
    attributes: {
      type: 'object',
      properties: {
        status: { enum: ['pending', 'approved', 'rejected'] },
        action_name: { type: 'string' },
        collection_name: { type: 'string' },
        smart_action_id: { type: ['string', 'null'] },
        record_ids: { type: 'array', items: { type: 'string' } },
        inputs: {
          type: 'array',
          description:
            'The action form as filed: each field’s `name`, `type`, `reference` and `widgetEdit` (a record field’s target and the agent’s widget, when the field has them) and `value`',
          items: { type: 'object' },
        },
        requester: PERSON,
        reviewer: PERSON,
        reviewed_at: { type: ['string', 'null'], format: 'date-time' },
        outcome: { enum: ['succeeded', 'failed', null] },
        outcome_message: { type: ['string', 'null'] },
        created_at: { type: 'string', format: 'date-time' },
        can_approve: {
          type: 'boolean',
          description: 'Pending, and the caller’s role may approve it (self-approve for their own)',
        },
        comments: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              comment: { type: 'string' },
              created_at: { type: 'string', format: 'date-time' },
              author: PERSON,
            },
          },
        },
      },
    },
  },
};
const ONE = { content: json({ type: 'object', properties: { data: APPROVAL } }) };
const HEADERS = [
  {
    name: 'project',
    in: 'query',
    required: false,
    description: 'Project name; with `environment`, names the environment instead of the header',
    schema: { type: 'string' },
  },
  {
    name: 'environment',
    in: 'query',
    required: false,
    description: 'Environment name (with `project`)',
    schema: { type: 'string' },
  },
  {
    name: 'forest-environment-id',
    in: 'header',
    required: false,
    description:
      'The environment (id); a session token or the console’s access token names it here or with `project` and `environment`; MCP tokens and agents’ access tokens carry theirs',
    schema: ID_SCHEMA,
  },
  {
    name: 'forest-rendering-id',
    in: 'header',
    required: false,
    description: 'The caller’s team (rendering ids are team ids); default: their first team',
    schema: ID_SCHEMA,
  },
];
const ID = { name: 'approvalId', in: 'path', required: true, schema: ID_SCHEMA };
const SECURITY = [{ sessionAuth: [] }, { userPlatformToken: [] }];
const tags = ['action approvals'];

/**
 * Action approvals (platform protocol §9–10): requests filed after the agent answered
 * `CustomActionRequiresApprovalError`, the environment's queue, review and outcome.
 */
export function approvalPaths(): Record<string, Record<string, unknown>> {
  return {
    '/api/action-approvals': {
      post: {
        operationId: 'createActionApproval',
        summary:
          'File an approval request for an action (what the console and the agent’s MCP server send): only for an action of the environment’s uploaded schema, in that collection, that the caller’s role may trigger and must have approved (never in a development environment); `smart_action_id` is the schema’s. Logged as `createApproval`',
        tags,
        security: SECURITY,
        parameters: HEADERS,
        requestBody: { required: true, content: json(body.CREATE_APPROVAL_BODY) },
        responses: { '201': { description: 'Filed, pending', ...ONE }, ...ERRORS },
      },
      get: {
        operationId: 'listActionApprovals',
        summary: 'The environment’s approval requests, newest first (200 at most), with comments',
        tags,
        security: SECURITY,
        parameters: [
          ...HEADERS,
          {
            name: 'status',
            in: 'query',
            required: false,
            schema: { enum: ['pending', 'approved', 'rejected'] },
          },
          {
            name: 'mine',
            in: 'query',
            required: false,
            description: 'Only the caller’s own requests',
            schema: { type: 'boolean' },
          },
        ],
        responses: {
          '200': {
            description: 'The queue',
            content: json({
              type: 'object',
              properties: { data: { type: 'array', items: APPROVAL } },
            }),
          },
          ...ERRORS,
        },
      },
    },
    '/api/action-approvals/{approvalId}': {
      get: {
        operationId: 'getActionApproval',
        summary: 'One approval request of the environment',
        tags,
        security: SECURITY,
        parameters: [ID, ...HEADERS],
        responses: { '200': { description: 'The request', ...ONE }, ...ERRORS },
      },
    },
    '/api/action-approvals/{approvalId}/comments': {
      post: {
        operationId: 'commentActionApproval',
        summary: 'Comment an approval request',
        tags,
        security: SECURITY,
        parameters: [ID, ...HEADERS],
        requestBody: { required: true, content: json(body.COMMENT_BODY) },
        responses: { '201': { description: 'Commented' }, ...ERRORS },
      },
    },
    '/api/action-approvals/{approvalId}/approve': {
      post: {
        operationId: 'approveActionApproval',
        summary:
          'Approve a pending request (role with the approve right; self-approve for one’s own); logged as `approveApproval`. Answers `meta.signed_approval_request`: a JWT (HS256, the environment secret, 10 minutes) whose payload is the action body to run, naming `collection_name`, `smart_action_id` (the action’s id in the environment’s schema), `action_name`, `ids`, `values` and `requester_id`; send it to the agent as `data.attributes.signed_approval_request`',
        tags,
        security: SECURITY,
        parameters: [ID, ...HEADERS],
        requestBody: { required: false, content: json(body.REVIEW_BODY) },
        responses: {
          '200': {
            description: 'Approved',
            content: json({
              type: 'object',
              properties: {
                data: APPROVAL,
                meta: {
                  type: 'object',
                  properties: { signed_approval_request: { type: 'string' } },
                },
              },
            }),
          },
          ...ERRORS,
          '409': error(
            'Already approved or rejected; or the environment secret predates sealed secrets (rotate it once)',
          ),
        },
      },
    },
    '/api/action-approvals/{approvalId}/reject': {
      post: {
        operationId: 'rejectActionApproval',
        summary: 'Reject a pending request, with an optional comment; logged as `rejectApproval`',
        tags,
        security: SECURITY,
        parameters: [ID, ...HEADERS],
        requestBody: { required: false, content: json(body.REVIEW_BODY) },
        responses: {
          '200': { description: 'Rejected', ...ONE },
          ...ERRORS,
          '409': error('Already approved or rejected'),
        },
      },
    },
    '/api/action-approvals/{approvalId}/outcome': {
      post: {
        operationId: 'recordActionApprovalOutcome',
        summary: 'The approver records how the run of the approved action went',
        tags,
        security: SECURITY,
        parameters: [ID, ...HEADERS],
        requestBody: { required: true, content: json(body.OUTCOME_BODY) },
        responses: {
          '200': { description: 'Recorded', ...ONE },
          ...ERRORS,
          '409': error('Not approved, or approved by someone else'),
        },
      },
    },
  };
}
