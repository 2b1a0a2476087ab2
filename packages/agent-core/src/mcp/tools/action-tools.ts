import { z } from 'zod';

import type { SchemaAction, SchemaCollection } from '../../schema/schema-json';
import type { ActionResult } from '../../toolkit/action/action-result';
import { isCanopyError } from '../../toolkit/errors/canopy-error';
import { UnexpectedOperationFailure, operationFailure } from '../tool-refusal';
import { type ToolContext, ToolError, findCollection, packId } from './tool-context';
import { defineTool } from './tool-definition';
import { collectionNameInput, recordIdInput, valuesInput } from './tool-inputs';
import { resolveUploadHandles } from './upload-tool';

/** One field of a loaded action form, as the agent sends it (protocol §13.5). */
interface WireFormField {
  field: string;
  type: unknown;
  value?: unknown;
  isRequired?: boolean;
  isReadOnly?: boolean;
  description?: string;
  enums?: string[] | null;
  reference?: string | null;
  widgetEdit?: { name: string; parameters?: Record<string, unknown> | null } | null;
}

/** One field of a form, as tools return it. */
interface FormField {
  name: string;
  type: unknown;
  value: unknown;
  isRequired: boolean;
  description?: string;
  enumValues?: string[];
}

const actionInputs = (names: readonly string[]) => ({
  collectionName: collectionNameInput(names),
  actionName: z.string().min(1).describe('Name of the action, as describeCollection lists it'),
  recordIds: z
    .array(recordIdInput)
    .nullable()
    .describe('Records the action runs on; null for a global action'),
  values: valuesInput('values')
    .optional()
    .describe(
      'Form values by field name; a File field takes a fileHandle from uploadActionFile (a ' +
        'FileList field a list of them)',
    ),
});

function findAction(collection: SchemaCollection, name: string): SchemaAction {
  const action = collection.actions.find((candidate) => candidate.name === name);
  if (!action) {
    throw new ToolError(
      `Unknown action "${name}" on "${collection.name}". Actions: ${
        collection.actions.map((candidate) => candidate.name).join(', ') || '(none)'
      }.`,
    );
  }
  return action;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

interface LoadedForm {
  fields: FormField[];
  /** The form's fields as the agent answered them (filed with an approval request). */
  wire: WireFormField[];
  values: Record<string, unknown>;
  skippedFields: string[];
}

/** Loads the form (`hooks/load`) for these records and values, and sets the values on it. */
async function loadForm(
  context: ToolContext,
  collection: SchemaCollection,
  action: SchemaAction,
  ids: string[],
  values: Record<string, unknown>,
): Promise<LoadedForm> {
  const answer = await context.agent.loadActionForm(collection.name, action.name, { ids, values });
  // The form as the wire carries it (dates as ISO text, `undefined` members dropped).
  const form = asWire(answer) as { fields?: WireFormField[] };
  const wire = form.fields ?? [];
  const names = new Set(wire.map((field) => field.field));
  const merged: Record<string, unknown> = {};
  const fields = wire.map((field) => {
    const value = field.field in values ? values[field.field] : (field.value ?? null);
    merged[field.field] = value;
    return {
      name: field.field,
      type: field.type,
      value,
      isRequired: field.isRequired ?? false,
      ...(field.description ? { description: field.description } : {}),
      ...(field.enums && field.enums.length > 0 ? { enumValues: field.enums } : {}),
    };
  });
  return {
    fields,
    wire,
    values: merged,
    skippedFields: Object.keys(values).filter((name) => !names.has(name)),
  };
}

function summary(form: LoadedForm) {
  const requiredFields = form.fields.filter((field) => field.isRequired).map((field) => field.name);
  const missing = form.fields.filter((field) => field.isRequired && isEmpty(field.value));
  return { requiredFields, canExecute: missing.length === 0, missing: missing.map((f) => f.name) };
}

/** `getActionForm`: the fields of an action's form for some records, with values set. */
export const getActionFormTool = defineTool({
  name: 'getActionForm',
  description:
    'Load the form of an action for some records: its fields (type, value, required, allowed ' +
    'values), which fields are required and whether the action can run with the given values.',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:read',
  input: actionInputs,
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const action = findAction(collection, input.actionName);
    const form = await loadForm(
      context,
      collection,
      action,
      (input.recordIds ?? []).map(packId),
      resolveUploadHandles(context, input.values ?? {}),
    );
    const { requiredFields, canExecute } = summary(form);
    // Uploaded files are shown by their handle, not echoed back as data URIs.
    const given = input.values ?? {};
    const fields = form.fields.map((field) =>
      field.name in given && field.value !== given[field.name]
        ? { ...field, value: given[field.name] }
        : field,
    );
    return { fields, canExecute, requiredFields, skippedFields: form.skippedFields };
  },
});

/** `executeAction`: runs an action with form values (unknown fields refused). */
export const executeActionTool = defineTool({
  name: 'executeAction',
  description:
    'Run an action on some records with form values (see getActionForm). Returns the ' +
    "action's result: a success message, an error, a redirection or a file description.",
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
  scope: 'mcp:action',
  input: (names) => ({
    ...actionInputs(names),
    reasoning: z.string().optional().describe('Why the action is run (kept with approvals)'),
  }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const action = findAction(collection, input.actionName);
    const ids = (input.recordIds ?? []).map(packId);
    const values = resolveUploadHandles(context, input.values ?? {});
    const form = await loadForm(context, collection, action, ids, values);
    if (form.skippedFields.length > 0) {
      throw new ToolError(
        `The form of "${action.name}" has no field ${form.skippedFields.map((name) => `"${name}"`).join(', ')}. ` +
          `Fields: ${form.fields.map((field) => field.name).join(', ') || '(none)'}.`,
      );
    }
    const { missing } = summary(form);
    if (missing.length > 0) {
      throw new ToolError(
        `"${action.name}" needs values for the required fields ${missing.map((name) => `"${name}"`).join(', ')}.`,
      );
    }
    let result: ActionResult;
    try {
      result = await context.agent.executeAction(collection.name, action.name, {
        ids,
        values: form.values,
      });
    } catch (error) {
      if (!isCanopyError(error, { code: 'ACTION_REQUIRES_APPROVAL' })) throw error;
      const approvalId = await context.requestApproval({
        actionName: action.name,
        collectionName: collection.name,
        recordIds: ids,
        // With each field's record reference and widget, so that the Console shows the values
        // as the form did.
        inputs: form.wire.map(({ field, type, reference, widgetEdit }) => ({
          name: field,
          type,
          ...(reference ? { reference } : {}),
          ...(widgetEdit ? { widgetEdit } : {}),
          value: form.values[field],
        })),
        ...(input.reasoning ? { comment: input.reasoning } : {}),
      });
      return {
        approvalRequested: true,
        approvalId,
        message:
          `"${action.name}" needs an approval: request ${approvalId} was filed in Canopy; ` +
          'the action runs once a reviewer approves it.',
      };
    }
    return actionOutcome(result);
  },
});

/**
 * What `executeAction` returns for an action's result: its wire form (agent-http-protocol §9.6),
 * an error result as a tool error, a file as its description (name, type as the REST answer's
 * `Content-Type` says it, size of its text).
 */
async function actionOutcome(result: ActionResult): Promise<unknown> {
  switch (result.type) {
    case 'Success':
      return asWire({
        success: result.message ?? '',
        html: result.html,
        refresh: { relationships: [...(result.invalidated ?? [])] },
      });
    case 'Error':
      throw new ToolError(`The action failed: ${result.message || 'Error'}`);
    case 'Webhook':
      return asWire({
        webhook: {
          url: result.url,
          method: result.method,
          headers: result.headers,
          body: result.body,
        },
      });
    case 'Redirect':
      return asWire({ redirectTo: result.path });
    case 'File': {
      const mimeType = result.mimeType || 'application/octet-stream';
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of result.stream) {
          chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
        }
      } catch (error) {
        throw operationFailure(error);
      }
      return {
        file: {
          name: (result.name || 'file').replace(/["\\\r\n]/g, '_'),
          mimeType: mimeType.startsWith('text/') ? `${mimeType}; charset=utf-8` : mimeType,
          size: Buffer.byteLength(Buffer.concat(chunks).toString('utf8')),
        },
      };
    }
    default:
      throw new UnexpectedOperationFailure(
        new Error(`Unknown action result type '${String((result as { type?: unknown }).type)}'`),
      );
  }
}

/** A value as the wire carries it (dates as ISO text, `undefined` members dropped). */
function asWire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
