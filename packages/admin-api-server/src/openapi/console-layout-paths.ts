import * as layouts from '../routes/console-layouts';
import type { JsonSchema } from '../validation/ajv';
import { ID_SCHEMA } from '../validation/input-rules';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The Console layout schemas, as components of the document. */
export const CONSOLE_LAYOUT_SCHEMAS: Record<string, JsonSchema> = {
  ConsoleLayout: layouts.CONSOLE_LAYOUT,
  LayoutWidget: layouts.LAYOUT_WIDGET,
  PublishedLayout: layouts.PUBLISHED_LAYOUT,
  LayoutDraft: layouts.LAYOUT_DRAFT,
  SavedView: layouts.SAVED_VIEW,
  TeamSegment: layouts.TEAM_SEGMENT,
};

const path = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string', minLength: 1 },
) => ({
  name,
  in: 'path',
  required: true,
  schema,
  description,
});

const TEAM = path('teamName', 'The **case sensitive** team name');
const VERSION = path('version', 'A published version of the layout', ID_SCHEMA);
const VIEW_ID = path('viewId', 'The saved view', ID_SCHEMA);
const SEGMENT_ID = path('segmentId', 'The team segment', ID_SCHEMA);
const COLLECTION = path('collectionName', 'The collection (as the agent names it)');

const query = (schema: JsonSchema) =>
  Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: ((schema.required as string[] | undefined) ?? []).includes(name),
      schema: rest,
      description,
    };
  });

/** What the document's own helpers give: error responses, success responses, parameters. */
export interface PathHelpers {
  errors: (extra?: Record<string, string>) => Record<string, unknown>;
  ok: (description: string, schema: JsonSchema, status?: string) => Record<string, unknown>;
  security: unknown[];
  project: unknown;
  environment: unknown;
}

const EDITORS =
  'Layout editors only: a member of the team (or an admin) whose permission level is `admin`, `developer` or `editor`';

/**
 * The Console shaped by its users (issue 32): team layouts (published versions, the caller's own
 * draft, revert, copy), saved views and team defaults, team segments.
 */
export function consoleLayoutPaths(h: PathHelpers): Record<string, Record<string, unknown>> {
  const env = '/v1/project/{projectName}/environment/{environmentName}';
  const team = `${env}/teams/{teamName}`;
  const base = { tags: ['console layouts'], security: h.security };
  const params = [h.project, h.environment, TEAM];
  const noContent = (description: string) => ({ '204': { description }, ...h.errors() });
  return {
    [`${team}/layout`]: {
      get: {
        ...base,
        operationId: 'getTeamLayout',
        summary:
          "The team's published Console layout (`published` null until one is published); any member of the team, and admins",
        parameters: params,
        responses: { ...h.ok('The published layout', layouts.CURRENT_LAYOUT), ...h.errors() },
      },
    },
    [`${team}/layout/draft`]: {
      get: {
        ...base,
        operationId: 'getMyLayoutDraft',
        summary: `Your own draft of the team's layout (\`layout\` null without one); no one else sees it. ${EDITORS}`,
        parameters: params,
        responses: { ...h.ok('Your draft', ref('LayoutDraft')), ...h.errors() },
      },
      put: {
        ...base,
        operationId: 'saveMyLayoutDraft',
        summary: `Save your draft of the team's layout (validated strictly: a 400 names the wrong property). ${EDITORS}`,
        parameters: params,
        requestBody: { required: true, content: json(layouts.LAYOUT_DRAFT_BODY) },
        responses: { ...h.ok('Your saved draft', ref('LayoutDraft')), ...h.errors() },
      },
      delete: {
        ...base,
        operationId: 'discardMyLayoutDraft',
        summary: `Discard your draft. ${EDITORS}`,
        parameters: params,
        responses: noContent('Discarded (or there was none)'),
      },
    },
    [`${team}/layout/publish`]: {
      post: {
        ...base,
        operationId: 'publishLayout',
        summary: `Publish your draft as the team's next layout version (the draft goes), with an admin log. ${EDITORS}`,
        parameters: params,
        responses: {
          ...h.ok('The published version', ref('PublishedLayout'), '201'),
          ...h.errors({ '409': 'You have no draft to publish' }),
        },
      },
    },
    [`${team}/layout/versions`]: {
      get: {
        ...base,
        operationId: 'listLayoutVersions',
        summary: `Every published version of the team's layout, newest first. ${EDITORS}`,
        parameters: params,
        responses: { ...h.ok('The versions', layouts.LAYOUT_VERSIONS), ...h.errors() },
      },
    },
    [`${team}/layout/versions/{version}/revert`]: {
      post: {
        ...base,
        operationId: 'revertLayout',
        summary: `Undo published changes: publish an earlier version's layout again, as a new version. ${EDITORS}`,
        parameters: [...params, VERSION],
        responses: { ...h.ok('The new version', ref('PublishedLayout'), '201'), ...h.errors() },
      },
    },
    [`${team}/layout/copy`]: {
      post: {
        ...base,
        operationId: 'copyLayout',
        summary: `Publish another team's published layout as this team's next version (you must see the other team too). ${EDITORS}`,
        parameters: params,
        requestBody: { required: true, content: json(layouts.COPY_LAYOUT_BODY) },
        responses: {
          ...h.ok('The new version', ref('PublishedLayout'), '201'),
          ...h.errors({ '409': 'The other team has no published layout' }),
        },
      },
    },
    [`${env}/views`]: {
      get: {
        ...base,
        operationId: 'listSavedViews',
        summary: "A collection's saved views you see: your own, and those shared with your teams",
        parameters: [h.project, h.environment, ...query(layouts.LIST_VIEWS_QUERY)],
        responses: { ...h.ok('The views', layouts.SAVED_VIEWS), ...h.errors() },
      },
      post: {
        ...base,
        operationId: 'createSavedView',
        summary:
          'Save a view (filter, search, sort, columns, segment): personal, or shared with one of your teams',
        parameters: [h.project, h.environment],
        requestBody: { required: true, content: json(layouts.CREATE_VIEW_BODY) },
        responses: { ...h.ok('The view', ref('SavedView'), '201'), ...h.errors() },
      },
    },
    [`${env}/views/{viewId}`]: {
      patch: {
        ...base,
        operationId: 'updateSavedView',
        summary:
          "Change a saved view (its owner, or an admin); others' views of your team are a 403",
        parameters: [h.project, h.environment, VIEW_ID],
        requestBody: { required: true, content: json(layouts.UPDATE_VIEW_BODY) },
        responses: { ...h.ok('The view', ref('SavedView')), ...h.errors() },
      },
      delete: {
        ...base,
        operationId: 'deleteSavedView',
        summary: 'Delete a saved view (its owner, or an admin)',
        parameters: [h.project, h.environment, VIEW_ID],
        responses: noContent('Deleted'),
      },
    },
    [`${team}/default-views/{collectionName}`]: {
      put: {
        ...base,
        operationId: 'setTeamDefaultView',
        summary: `Make a view shared with the team its default for the collection. ${EDITORS}`,
        parameters: [...params, COLLECTION],
        requestBody: { required: true, content: json(layouts.DEFAULT_VIEW_BODY) },
        responses: { ...h.ok('The view', ref('SavedView')), ...h.errors() },
      },
      delete: {
        ...base,
        operationId: 'clearTeamDefaultView',
        summary: `The team has no default view of the collection any more. ${EDITORS}`,
        parameters: [...params, COLLECTION],
        responses: noContent('Cleared'),
      },
    },
    [`${team}/segments`]: {
      get: {
        ...base,
        operationId: 'listTeamSegments',
        summary: "The team's segments built in the Console; any member of the team, and admins",
        parameters: [...params, ...query(layouts.LIST_SEGMENTS_QUERY)],
        responses: { ...h.ok('The segments', layouts.TEAM_SEGMENTS), ...h.errors() },
      },
      post: {
        ...base,
        operationId: 'createTeamSegment',
        summary: `Create a team segment (a named condition tree on a collection); agents receive it in the team's rendering permissions within a second. ${EDITORS}`,
        parameters: params,
        requestBody: { required: true, content: json(layouts.CREATE_SEGMENT_BODY) },
        responses: {
          ...h.ok('The segment', ref('TeamSegment'), '201'),
          ...h.errors({ '409': 'The team has a segment of that name on the collection' }),
        },
      },
    },
    [`${team}/segments/{segmentId}`]: {
      patch: {
        ...base,
        operationId: 'updateTeamSegment',
        summary: `Change a team segment. ${EDITORS}`,
        parameters: [...params, SEGMENT_ID],
        requestBody: { required: true, content: json(layouts.UPDATE_SEGMENT_BODY) },
        responses: {
          ...h.ok('The segment', ref('TeamSegment')),
          ...h.errors({ '409': 'The team has a segment of that name on the collection' }),
        },
      },
      delete: {
        ...base,
        operationId: 'deleteTeamSegment',
        summary: `Delete a team segment. ${EDITORS}`,
        parameters: [...params, SEGMENT_ID],
        responses: noContent('Deleted'),
      },
    },
  };
}
