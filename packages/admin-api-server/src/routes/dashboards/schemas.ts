import type { JsonSchema } from '../../validation/ajv';
import { CHART } from '../management/schemas';

import { CHART_KINDS } from '@canopy/platform-protocol';

const NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

/** One chart of a dashboard and its place in the grid. */
export const DASHBOARD_ITEM: JsonSchema = {
  type: 'object',
  properties: {
    id: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      description: 'Unique within the dashboard.',
    },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    width: {
      type: 'integer',
      enum: [3, 4, 6, 8, 12],
      description: 'Columns out of 12 in the dashboard grid.',
    },
    chart: {
      oneOf: [
        {
          type: 'object',
          description:
            'A chart built in the console, computed by the agent (`POST /forest/stats/{collection}`); `query` is the request body, and is served to agents in every rendering’s `stats`.',
          properties: {
            source: { const: 'collection' },
            query: {
              ...CHART,
              required: ['type', 'sourceCollectionName', 'aggregator'],
              properties: {
                ...(CHART.properties as Record<string, JsonSchema>),
                type: {
                  type: 'string',
                  enum: ['Pie', 'Value', 'Leaderboard', 'Line', 'Objective'],
                },
              },
            },
          },
          required: ['source', 'query'],
          additionalProperties: false,
        },
        {
          type: 'object',
          description:
            'A chart declared in the agent’s code (`/forest/_charts/{chart}` or `/forest/_charts/{collection}/{chart}`), drawn as `kind`.',
          properties: {
            source: { const: 'api' },
            chart: NAME,
            collection: NAME,
            recordId: NAME,
            kind: { type: 'string', enum: [...CHART_KINDS] },
          },
          required: ['source', 'chart', 'kind'],
          additionalProperties: false,
        },
      ],
    },
  },
  required: ['id', 'title', 'width', 'chart'],
  additionalProperties: false,
};

/** `PUT …/dashboard` body. */
export const DASHBOARD_BODY: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', maxItems: 100, items: DASHBOARD_ITEM } },
  required: ['items'],
  additionalProperties: false,
};

/** The dashboard, as `GET` and `PUT` answer it. */
export const DASHBOARD: JsonSchema = {
  type: 'object',
  properties: {
    items: { type: 'array', items: DASHBOARD_ITEM },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['items', 'updatedAt'],
};
