import {
  DURATION_UNITS,
  LAYOUT_WIDGETS,
  NUMBER_FORMATS,
  TABLE_DENSITIES,
  TABLE_PAGE_SIZES,
  type LayoutWidgetType,
} from '@canopy/platform-protocol';
import type { JsonSchema } from '../../validation/ajv';
import { conditionTree } from '../management/schemas';

const NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };
const LABEL: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const FIELDS: JsonSchema = { type: 'array', maxItems: 500, uniqueItems: true, items: NAME };
const COLOUR: JsonSchema = {
  type: 'string',
  pattern: '^#[0-9a-fA-F]{6}$',
  description: 'A colour as `#rrggbb`',
};
const ICON: JsonSchema = {
  type: 'string',
  pattern: '^[a-z0-9-]{1,64}$',
  description: 'An icon name of the Console’s icon set (kebab-case)',
};
const DECIMALS: JsonSchema = { type: 'integer', minimum: 0, maximum: 10 };
const CONDITION_TREE = conditionTree();

const settings = (properties: Record<string, JsonSchema>, required: string[] = []) => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});

/** The settings each widget accepts (and only those). */
export const WIDGET_SETTINGS: Record<LayoutWidgetType, JsonSchema> = {
  text: settings({}),
  'long-text': settings({ rows: { type: 'integer', minimum: 1, maximum: 50 } }),
  markdown: settings({}),
  'rich-text': settings({}),
  email: settings({}),
  url: settings({ openInNewTab: { type: 'boolean' } }),
  phone: settings({ defaultCountry: { type: 'string', pattern: '^[A-Z]{2}$' } }),
  badge: settings(
    {
      colours: {
        type: 'object',
        maxProperties: 200,
        additionalProperties: COLOUR,
        description: 'Colour per enum value',
      },
      defaultColour: COLOUR,
    },
    ['colours'],
  ),
  switch: settings({ trueLabel: LABEL, falseLabel: LABEL }),
  number: settings({
    format: { type: 'string', enum: [...NUMBER_FORMATS] },
    decimals: DECIMALS,
    prefix: { type: 'string', maxLength: 20 },
    suffix: { type: 'string', maxLength: 20 },
  }),
  // Exactly one of `currency` and `currencyField`: checked by checkLayout (routes/console-layouts).
  currency: settings({
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' },
    currencyField: { ...NAME, description: 'The field of the record holding the ISO code' },
    decimals: DECIMALS,
  }),
  percentage: settings({
    decimals: DECIMALS,
    ratio: { type: 'boolean', description: 'The value is a ratio (0.5 shows 50 %)' },
  }),
  progress: settings({ max: { type: 'number', exclusiveMinimum: 0 } }),
  duration: settings({ unit: { type: 'string', enum: [...DURATION_UNITS] } }, ['unit']),
  'relative-time': settings({}),
  datetime: settings(
    {
      format: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description: 'Unicode date pattern, e.g. `yyyy-MM-dd HH:mm`',
      },
      timeZone: { type: 'string', minLength: 1, maxLength: 64 },
    },
    ['format'],
  ),
  colour: settings({}),
  rating: settings({ max: { type: 'integer', minimum: 1, maximum: 10 } }),
  image: settings({ height: { type: 'integer', minimum: 16, maximum: 1024 } }),
  file: settings({}),
  json: settings({ collapsed: { type: 'boolean' } }),
  'map-point': settings({ zoom: { type: 'integer', minimum: 1, maximum: 20 } }),
  'has-many-count': settings({}),
  link: settings(
    {
      urlTemplate: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: 'A URL with `{{field}}` placeholders, e.g. `https://crm.example.com/{{id}}`',
      },
      label: LABEL,
    },
    ['urlTemplate'],
  ),
};

/** A widget from the catalogue and its settings, checked against the widget's own settings. */
export const LAYOUT_WIDGET: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...LAYOUT_WIDGETS] },
    settings: { type: 'object' },
  },
  required: ['type'],
  additionalProperties: false,
  allOf: LAYOUT_WIDGETS.map((widget) => ({
    if: { properties: { type: { const: widget } }, required: ['type'] },
    then: { properties: { settings: WIDGET_SETTINGS[widget] } },
  })),
};

const SIDEBAR_COLLECTION: JsonSchema = {
  type: 'object',
  properties: {
    type: { const: 'collection' },
    collection: NAME,
    displayName: LABEL,
    icon: ICON,
    hidden: { type: 'boolean' },
  },
  required: ['type', 'collection'],
  additionalProperties: false,
};

const SIDEBAR_GROUP: JsonSchema = {
  type: 'object',
  properties: {
    type: { const: 'group' },
    name: LABEL,
    icon: ICON,
    collections: { type: 'array', maxItems: 500, items: SIDEBAR_COLLECTION },
  },
  required: ['type', 'name', 'collections'],
  additionalProperties: false,
};

const SORT: JsonSchema = {
  type: 'object',
  properties: { field: NAME, ascending: { type: 'boolean' } },
  required: ['field', 'ascending'],
  additionalProperties: false,
};

const SECTION: JsonSchema = {
  type: 'object',
  properties: { title: LABEL, fields: FIELDS },
  required: ['fields'],
  additionalProperties: false,
};
const SECTIONS: JsonSchema = { type: 'array', maxItems: 100, items: SECTION };

const FIELD_TAB: JsonSchema = {
  type: 'object',
  properties: { title: LABEL, sections: SECTIONS },
  required: ['title', 'sections'],
  additionalProperties: false,
};
const RELATED_TAB: JsonSchema = {
  type: 'object',
  properties: {
    related: { ...NAME, description: 'A to-many relationship field of the collection' },
    title: LABEL,
  },
  required: ['related'],
  additionalProperties: false,
};

const FORM: JsonSchema = {
  type: 'object',
  properties: { sections: SECTIONS, readOnlyInEdit: FIELDS },
  required: ['sections'],
  additionalProperties: false,
};

const TABLE: JsonSchema = {
  type: 'object',
  properties: {
    columns: {
      type: 'array',
      maxItems: 500,
      items: {
        type: 'object',
        properties: { field: NAME, width: { type: 'integer', minimum: 40, maximum: 2000 } },
        required: ['field'],
        additionalProperties: false,
      },
      description: 'The visible columns, in order, with their width in pixels',
    },
    defaultSort: { anyOf: [SORT, { type: 'null' }] },
    pageSize: { type: 'integer', enum: [...TABLE_PAGE_SIZES] },
    density: { type: 'string', enum: [...TABLE_DENSITIES] },
    firstSegment: {
      anyOf: [NAME, { type: 'null' }],
      description: 'The segment the table opens on',
    },
    rowColours: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        properties: { filter: CONDITION_TREE, colour: COLOUR },
        required: ['filter', 'colour'],
        additionalProperties: false,
      },
      description: 'Rules in order: a row takes the colour of the first rule it matches',
    },
  },
  additionalProperties: false,
};

const COLLECTION_LAYOUT: JsonSchema = {
  type: 'object',
  properties: {
    table: TABLE,
    fields: {
      type: 'object',
      maxProperties: 1000,
      additionalProperties: {
        type: 'object',
        properties: { display: LAYOUT_WIDGET, edit: LAYOUT_WIDGET },
        additionalProperties: false,
      },
      description: 'Widget per field name, for display and for edit',
    },
    recordPage: {
      type: 'object',
      properties: {
        sections: { ...SECTIONS, description: 'The first tab, "Details"' },
        tabs: {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'object',
            // A related tab names its relationship; any other tab is a tab of fields.
            if: { properties: { related: {} }, required: ['related'] },
            then: RELATED_TAB,
            else: FIELD_TAB,
          },
          description: 'Tabs in order (after "Details" when `sections` is set)',
        },
        relatedTabs: {
          ...FIELDS,
          description: 'Relationship fields shown as tabs after `tabs`, in order',
        },
        readOnlyFields: FIELDS,
      },
      additionalProperties: false,
    },
    forms: {
      type: 'object',
      properties: { create: FORM, edit: FORM },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** The layout document of a team in an environment. */
export const CONSOLE_LAYOUT: JsonSchema = {
  type: 'object',
  properties: {
    sidebar: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          maxItems: 500,
          items: {
            type: 'object',
            required: ['type'],
            properties: { type: { type: 'string', enum: ['collection', 'group'] } },
            allOf: [
              {
                if: { properties: { type: { const: 'collection' } } },
                then: SIDEBAR_COLLECTION,
              },
              { if: { properties: { type: { const: 'group' } } }, then: SIDEBAR_GROUP },
            ],
          },
          description: 'Collections and groups of collections, in order',
        },
      },
      required: ['items'],
      additionalProperties: false,
    },
    collections: { type: 'object', maxProperties: 1000, additionalProperties: COLLECTION_LAYOUT },
  },
  additionalProperties: false,
};

/** `PUT …/layout/draft` body. */
export const LAYOUT_DRAFT_BODY: JsonSchema = {
  type: 'object',
  properties: { layout: CONSOLE_LAYOUT },
  required: ['layout'],
  additionalProperties: false,
};

/** `POST …/layout/copy` body. */
export const COPY_LAYOUT_BODY: JsonSchema = {
  type: 'object',
  properties: { fromTeamName: { ...NAME, description: 'The team whose published layout to copy' } },
  required: ['fromTeamName'],
  additionalProperties: false,
};

const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };

/** A list answer: `{data: [item]}`. */
const listOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { data: { type: 'array', items: item } },
  required: ['data'],
  additionalProperties: false,
});
const USER_REF: JsonSchema = {
  anyOf: [
    {
      type: 'object',
      properties: { id: { type: 'integer' }, email: { type: 'string' } },
      required: ['id', 'email'],
      additionalProperties: false,
    },
    { type: 'null' },
  ],
};

/** A published layout version. */
export const PUBLISHED_LAYOUT: JsonSchema = {
  type: 'object',
  properties: {
    teamName: { type: 'string' },
    version: { type: 'integer', minimum: 1 },
    layout: CONSOLE_LAYOUT,
    origin: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['publish', 'revert', 'copy'] },
        version: { type: 'integer', description: 'The version reverted to, or copied' },
        teamName: { type: 'string', description: 'The team copied from' },
      },
      required: ['kind'],
      additionalProperties: false,
    },
    publishedAt: DATE_TIME,
    publishedBy: USER_REF,
  },
  required: ['teamName', 'version', 'layout', 'origin', 'publishedAt', 'publishedBy'],
  additionalProperties: false,
};

/** `GET …/layout`: the published layout, or `null` members of a team without one get. */
export const CURRENT_LAYOUT: JsonSchema = {
  type: 'object',
  properties: {
    teamName: { type: 'string' },
    published: { anyOf: [PUBLISHED_LAYOUT, { type: 'null' }] },
  },
  required: ['teamName', 'published'],
  additionalProperties: false,
};

/** The caller's own draft. */
export const LAYOUT_DRAFT: JsonSchema = {
  type: 'object',
  properties: {
    teamName: { type: 'string' },
    layout: { anyOf: [CONSOLE_LAYOUT, { type: 'null' }] },
    baseVersion: { type: ['integer', 'null'] },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['teamName', 'layout', 'baseVersion', 'updatedAt'],
  additionalProperties: false,
};

/** `GET …/layout/versions`. */
export const LAYOUT_VERSIONS: JsonSchema = listOf(PUBLISHED_LAYOUT);

/* Saved views -------------------------------------------------------------------------------- */

const VIEW_PROPERTIES: Record<string, JsonSchema> = {
  name: LABEL,
  collection: NAME,
  filter: { anyOf: [CONDITION_TREE, { type: 'null' }] },
  search: { type: ['string', 'null'], maxLength: 1000 },
  sort: { anyOf: [SORT, { type: 'null' }] },
  columns: { anyOf: [FIELDS, { type: 'null' }], description: 'Visible columns, in order' },
  segment: { anyOf: [NAME, { type: 'null' }] },
  teamName: {
    anyOf: [NAME, { type: 'null' }],
    description: 'Share with this team (one of the caller’s); null or absent: personal',
  },
};

/** `POST …/views` body. */
export const CREATE_VIEW_BODY: JsonSchema = {
  type: 'object',
  properties: VIEW_PROPERTIES,
  required: ['name', 'collection'],
  additionalProperties: false,
};

/** `PATCH …/views/{viewId}` body. */
export const UPDATE_VIEW_BODY: JsonSchema = {
  type: 'object',
  properties: VIEW_PROPERTIES,
  minProperties: 1,
  additionalProperties: false,
};

/** A saved view. */
export const SAVED_VIEW: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    ...VIEW_PROPERTIES,
    teamName: { type: ['string', 'null'] },
    owner: USER_REF,
    defaultForTeams: { type: 'array', items: { type: 'string' } },
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  },
  required: [
    'id',
    'name',
    'collection',
    'filter',
    'search',
    'sort',
    'columns',
    'segment',
    'teamName',
    'owner',
    'defaultForTeams',
    'createdAt',
    'updatedAt',
  ],
  additionalProperties: false,
};

/** `GET …/views`. */
export const SAVED_VIEWS: JsonSchema = listOf(SAVED_VIEW);

/** `GET …/views` query. */
export const LIST_VIEWS_QUERY: JsonSchema = {
  type: 'object',
  properties: { collection: { ...NAME, description: 'The collection whose views to list' } },
  required: ['collection'],
  additionalProperties: false,
};

/** `PUT …/default-views/{collectionName}` body. */
export const DEFAULT_VIEW_BODY: JsonSchema = {
  type: 'object',
  properties: {
    viewId: {
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      description: 'A view of that collection shared with the team',
    },
  },
  required: ['viewId'],
  additionalProperties: false,
};

/* Team segments ------------------------------------------------------------------------------ */

/** `POST …/segments` body. */
const SEGMENT_PROPERTIES: Record<string, JsonSchema> = {
  name: LABEL,
  collection: NAME,
  filter: CONDITION_TREE,
};

export const CREATE_SEGMENT_BODY: JsonSchema = {
  type: 'object',
  properties: SEGMENT_PROPERTIES,
  required: ['name', 'collection', 'filter'],
  additionalProperties: false,
};

/** `PATCH …/segments/{segmentId}` body. */
export const UPDATE_SEGMENT_BODY: JsonSchema = {
  type: 'object',
  properties: SEGMENT_PROPERTIES,
  minProperties: 1,
  additionalProperties: false,
};

/** A team segment. */
export const TEAM_SEGMENT: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    collection: { type: 'string' },
    filter: CONDITION_TREE,
    teamName: { type: 'string' },
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  },
  required: ['id', 'name', 'collection', 'filter', 'teamName', 'createdAt', 'updatedAt'],
  additionalProperties: false,
};

/** `GET …/segments`. */
export const TEAM_SEGMENTS: JsonSchema = listOf(TEAM_SEGMENT);

/** `GET …/segments` query. */
export const LIST_SEGMENTS_QUERY: JsonSchema = {
  type: 'object',
  properties: { collection: { ...NAME, description: 'Only the segments of this collection' } },
  additionalProperties: false,
};
