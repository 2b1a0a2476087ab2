import { selectionAttributes } from '@canopy/platform-protocol';

import type { AgentHttp } from './agent-http';
import { AgentHttpError } from './agent-http';
import type { SchemaFileAction, SchemaFormField } from './schema-file';

/** The action needs an approval; `roleIdsAllowedToApprove` lists who may give it. */
export class ActionRequiresApprovalError extends Error {
  constructor(readonly roleIdsAllowedToApprove: number[]) {
    super('This action requires to be approved.');
    this.name = 'ActionRequiresApprovalError';
  }
}

/** The action answered an `Error` result (400): its message and optional HTML. */
export class ActionFailedError extends Error {
  constructor(
    message: string,
    readonly html?: string,
  ) {
    super(message);
    this.name = 'ActionFailedError';
  }
}

/** A file for File and FileList fields, sent as a data URI. */
export interface ClientFile {
  buffer: Buffer;
  mimeType: string;
  name: string;
}

function isClientFile(value: unknown): value is ClientFile {
  return (
    typeof value === 'object' && value !== null && Buffer.isBuffer((value as ClientFile).buffer)
  );
}

function toWire(value: unknown): unknown {
  if (isClientFile(value)) {
    return `data:${value.mimeType};name=${encodeURIComponent(value.name)};base64,${value.buffer.toString('base64')}`;
  }
  if (Array.isArray(value)) return value.map(toWire);
  if (value instanceof Date) return value.toISOString();
  return value;
}

function optionsOf(field: SchemaFormField): { label: string; value: unknown }[] {
  const options =
    (field.widgetEdit?.parameters?.static as { options?: unknown[] } | undefined)?.options ?? [];
  return options.map((option) =>
    typeof option === 'object' && option !== null && 'label' in option
      ? (option as { label: string; value: unknown })
      : { label: String(option), value: option },
  );
}

/** One field of a loaded form, with helpers to read and fill it. */
export class ActionFieldClient {
  constructor(
    private readonly action: ActionClient,
    readonly definition: SchemaFormField,
  ) {}

  get name(): string {
    return this.definition.field;
  }

  /** The current value. */
  getValue(): unknown {
    return this.definition.value;
  }

  /** Options of a Dropdown, RadioGroup or CheckboxGroup (labels and values). */
  getOptions(): { label: string; value: unknown }[] {
    return optionsOf(this.definition);
  }

  /** Sets the value (runs the change hook when the field has one). */
  fill(value: unknown): Promise<void> {
    return this.action.setFields({ [this.name]: value });
  }

  /** Selects an option by label (dropdown, radio group) or an enum value. */
  select(labelOrValue: string): Promise<void> {
    const option = this.getOptions().find((candidate) => candidate.label === labelOrValue);
    if (option) return this.fill(option.value);
    if (this.definition.enums && this.definition.enums.includes(labelOrValue))
      return this.fill(labelOrValue);
    throw new Error(`Field '${this.name}' has no option '${labelOrValue}'`);
  }

  /** Checks a checkbox, or one option of a checkbox group. */
  check(optionLabel?: string): Promise<void> {
    if (optionLabel === undefined) return this.fill(true);
    const option = this.getOptions().find((candidate) => candidate.label === optionLabel);
    if (!option) throw new Error(`Field '${this.name}' has no option '${optionLabel}'`);
    const current = Array.isArray(this.getValue()) ? (this.getValue() as unknown[]) : [];
    return this.fill([...current.filter((item) => item !== option.value), option.value]);
  }

  /** Unchecks a checkbox, or one option of a checkbox group. */
  uncheck(optionLabel?: string): Promise<void> {
    if (optionLabel === undefined) return this.fill(false);
    const option = this.getOptions().find((candidate) => candidate.label === optionLabel);
    const current = Array.isArray(this.getValue()) ? (this.getValue() as unknown[]) : [];
    return this.fill(current.filter((item) => item !== option?.value));
  }

  /** Adds an item to a list field. */
  add(item: unknown): Promise<void> {
    const current = Array.isArray(this.getValue()) ? (this.getValue() as unknown[]) : [];
    return this.fill([...current, item]);
  }

  /** Removes an item from a list field. */
  remove(item: unknown): Promise<void> {
    const current = Array.isArray(this.getValue()) ? (this.getValue() as unknown[]) : [];
    return this.fill(current.filter((candidate) => candidate !== item));
  }
}

/** The selection an action runs on. */
export interface ActionTarget {
  recordId?: string | number | (string | number)[];
  recordIds?: (string | number | (string | number)[])[];
}

function packId(id: string | number | (string | number)[]): string {
  return Array.isArray(id) ? id.map(String).join('|') : String(id);
}

/**
 * An action of a collection, as the front end drives it (platform protocol §14.6): its form is
 * loaded at creation, values set with change hooks, then `execute()`.
 */
export class ActionClient {
  private fields: SchemaFormField[] = [];
  private layout: unknown[] = [];
  private readonly ids: string[];

  constructor(
    private readonly http: AgentHttp,
    private readonly collection: string,
    private readonly schema: SchemaFileAction,
    target: ActionTarget,
  ) {
    const ids = target.recordIds ?? (target.recordId === undefined ? [] : [target.recordId]);
    this.ids = ids.map(packId);
  }

  /** The selection attributes of every hook and execute body (agent-http-protocol §6.9). */
  private get selection(): Record<string, unknown> {
    return selectionAttributes(this.collection, { ids: this.ids });
  }

  /** Loads the form: from the schema for static forms, else through `hooks/load`. */
  async load(): Promise<this> {
    if (!this.schema.hooks?.load) {
      this.fields = this.schema.fields.map((field) => ({ ...field, value: field.defaultValue }));
      this.layout = this.schema.layout ?? [];
      return this;
    }
    const answer = await this.http.json<{ fields: SchemaFormField[]; layout: unknown[] }>({
      method: 'POST',
      path: `${this.schema.endpoint}/hooks/load`,
      body: {
        data: {
          type: 'action-requests',
          attributes: { ...this.selection, values: {} },
        },
      },
    });
    this.fields = answer.fields;
    this.layout = answer.layout;
    return this;
  }

  /** The fields of the current form. */
  getFields(): ActionFieldClient[] {
    return this.fields.map((field) => new ActionFieldClient(this, field));
  }

  /** One field of the current form (an error names the available ones). */
  getField(name: string): ActionFieldClient {
    const field = this.fields.find((candidate) => candidate.field === name);
    if (!field) {
      throw new Error(
        `Action '${this.schema.name}' has no field '${name}'. Fields: ${this.fields.map((f) => f.field).join(', ')}`,
      );
    }
    return new ActionFieldClient(this, field);
  }

  /** Whether the current form has a field of this name. */
  doesFieldExist(name: string): boolean {
    return this.fields.some((field) => field.field === name);
  }

  /** The layout of the current form (pages, rows, inputs, HTML blocks, separators). */
  getLayout(): unknown[] {
    return this.layout;
  }

  /** Sets values; a field with a change hook reloads the form through `hooks/change`. */
  async setFields(values: Record<string, unknown>): Promise<void> {
    const skipped = await this.tryToSetFields(values);
    if (skipped.length > 0) {
      throw new Error(`Action '${this.schema.name}' has no field(s): ${skipped.join(', ')}`);
    }
  }

  /** Like {@link setFields}, but returns the names it could not set instead of throwing. */
  async tryToSetFields(values: Record<string, unknown>): Promise<string[]> {
    const skipped: string[] = [];
    for (const [name, value] of Object.entries(values)) {
      const field = this.fields.find((candidate) => candidate.field === name);
      if (!field) {
        skipped.push(name);
        continue;
      }
      field.value = toWire(value);
      if (field.hook) await this.change(name);
    }
    return skipped;
  }

  private async change(changedField: string): Promise<void> {
    const answer = await this.http.json<{ fields: SchemaFormField[]; layout: unknown[] }>({
      method: 'POST',
      path: `${this.schema.endpoint}/hooks/change`,
      body: {
        data: {
          type: 'custom-action-hook-requests',
          attributes: {
            ...this.selection,
            changed_field: changedField,
            fields: this.fields,
          },
        },
      },
    });
    this.fields = answer.fields;
    this.layout = answer.layout;
  }

  /** Options of a dynamic-search dropdown for `text` (`hooks/search`). */
  async search(fieldName: string, text: string): Promise<{ label: string; value: unknown }[]> {
    const fields = this.fields.map((field) =>
      field.field === fieldName ? { ...field, searchValue: text } : field,
    );
    const answer = await this.http.json<{ fields: SchemaFormField[] }>({
      method: 'POST',
      path: `${this.schema.endpoint}/hooks/search`,
      body: {
        data: {
          type: 'custom-action-hook-requests',
          attributes: {
            ...this.selection,
            search_field: fieldName,
            fields,
          },
        },
      },
    });
    const [field] = answer.fields;
    return field ? optionsOf(field) : [];
  }

  /**
   * Runs the action with the current values and returns the agent's answer (`{success, html,
   * refresh}`, `{webhook}`, `{redirectTo}`, or the file's text). An approval requirement throws
   * {@link ActionRequiresApprovalError}; an `Error` result throws {@link ActionFailedError}.
   */
  async execute(options: { signedApprovalRequest?: string } = {}): Promise<unknown> {
    const values = Object.fromEntries(
      this.fields
        .filter((field) => field.value !== undefined)
        .map((field) => [field.field, field.value]),
    );
    try {
      const response = await this.http.send({
        method: 'POST',
        path: this.schema.endpoint,
        body: {
          data: {
            type: 'custom-action-requests',
            attributes: {
              ...this.selection,
              values,
              signed_approval_request: options.signedApprovalRequest ?? null,
              smart_action_id: this.schema.id,
            },
          },
        },
      });
      const type = response.headers.get('content-type') ?? '';
      return type.startsWith('application/json') ? response.json() : response.text();
    } catch (error) {
      if (!(error instanceof AgentHttpError)) throw error;
      const body = error.body as {
        errors?: { name?: string; data?: { roleIdsAllowedToApprove?: number[] } }[];
        error?: string;
        html?: string;
      };
      const first = body?.errors?.[0];
      if (error.status === 403 && first?.name === 'CustomActionRequiresApprovalError') {
        throw new ActionRequiresApprovalError(first.data?.roleIdsAllowedToApprove ?? []);
      }
      if ((error.status === 400 || error.status === 422) && typeof body?.error === 'string') {
        throw new ActionFailedError(body.error, body.html);
      }
      throw error;
    }
  }
}
