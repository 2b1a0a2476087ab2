import type { JsonSchema } from '../../validation/ajv';

const TEXT = { type: 'string', maxLength: 10_000 };
const NAME = { type: 'string', minLength: 1, maxLength: 255 };
const COMMENT = { type: 'string', minLength: 1, maxLength: 10_000 };

/**
 * The widget of a form input as the agent describes it (`{name, parameters}`): the Console shows
 * a filed value as its form did (a price editor's amount in its currency).
 */
const WIDGET: JsonSchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: NAME, parameters: { anyOf: [{ type: 'object' }, { type: 'null' }] } },
    },
  ],
};

/**
 * One form input of the request, as the MCP server or the Console files it: `{name, type, value}`
 * with the field's `reference` (a record field) and `widgetEdit` when it has them.
 */
const INPUT: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: NAME,
    type: {},
    reference: { anyOf: [{ type: 'string', maxLength: 512 }, { type: 'null' }] },
    widgetEdit: WIDGET,
    value: {},
  },
};

/**
 * `POST /api/action-approvals`: the request the requester files when the agent answered
 * `CustomActionRequiresApprovalError`. `request` (optional) is the `data.attributes` of the action
 * call the requester made (selection, `values`, subset query): what the approver's console sends
 * back signed; without it the platform rebuilds one from `record_ids` and `inputs`.
 */
export const CREATE_APPROVAL_BODY: JsonSchema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'object',
      required: ['attributes'],
      additionalProperties: false,
      properties: {
        type: { const: 'action-approvals' },
        attributes: {
          type: 'object',
          required: ['action_name', 'collection_name', 'record_ids'],
          additionalProperties: false,
          properties: {
            status: { type: 'null' },
            action_name: NAME,
            collection_name: NAME,
            smart_action_id: { anyOf: [{ type: 'string', maxLength: 512 }, { type: 'null' }] },
            record_ids: {
              type: 'array',
              maxItems: 10_000,
              items: { anyOf: [{ type: 'string', maxLength: 1024 }, { type: 'integer' }] },
            },
            inputs: { type: 'array', maxItems: 200, items: INPUT, default: [] },
            request: {
              anyOf: [{ type: 'object' }, { type: 'null' }],
              description:
                'The `data.attributes` of the action call that needs approval (values, selection); `requester_id` and `signed_approval_request` are not accepted in it.',
            },
            comment: { ...COMMENT, description: 'Filed as the first comment.' },
          },
        },
      },
    },
  },
};

/** `POST /api/action-approvals/:id/comments`. */
export const COMMENT_BODY: JsonSchema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'object',
      required: ['attributes'],
      additionalProperties: false,
      properties: {
        type: { type: 'string' },
        attributes: {
          type: 'object',
          required: ['comment'],
          additionalProperties: false,
          properties: { comment: COMMENT },
        },
      },
    },
  },
};

/** `POST /api/action-approvals/:id/approve` and `/reject`: an optional comment. */
export const REVIEW_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { comment: COMMENT },
};

/** `POST /api/action-approvals/:id/outcome`: what the run of an approved action gave. */
export const OUTCOME_BODY: JsonSchema = {
  type: 'object',
  required: ['outcome'],
  additionalProperties: false,
  properties: {
    outcome: { enum: ['succeeded', 'failed'] },
    message: TEXT,
  },
};

/** `GET /api/action-approvals` query. */
export const LIST_APPROVALS_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { enum: ['pending', 'approved', 'rejected'] },
    mine: { type: 'boolean', description: 'Only the requests the caller filed.' },
    project: {
      type: 'string',
      description: 'Project name (with `environment`, instead of the header)',
    },
    environment: { type: 'string', description: 'Environment name' },
  },
};
