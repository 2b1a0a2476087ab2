import type { ActionFormElement, GetFormMetas } from '../../../toolkit/action/action-form';
import type { ActionResult } from '../../../toolkit/action/action-result';
import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import { Filter } from '../../../toolkit/query/filter';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { ActionContext, ActionContextSingle } from '../../action/action-context';
import type { ActionDefinition } from '../../action/action-definition';
import { ActionResultBuilder } from '../../action/action-result-builder';
import { computeForm, isStaticForm } from '../../action/form-computation';
import { CollectionDecorator } from '../collection-decorator';

const SCOPES = ['Single', 'Bulk', 'Global'];

/**
 * Layer 8 — actions. Contexts created here hold this layer's collection, so writes made by an
 * action skip the layers above (regular hooks, validation rules, binary conversion, custom
 * writing) and go through internal hooks and everything below.
 */
export class ActionCollectionDecorator extends CollectionDecorator {
  private readonly actions = new Map<string, ActionDefinition>();

  addAction(name: string, definition: ActionDefinition): void {
    if (!definition || typeof definition.execute !== 'function') {
      throw new ValidationError(`Action '${this.name}.${name}' needs an execute function.`);
    }
    if (!SCOPES.includes(definition.scope)) {
      throw new ValidationError(
        `Action '${this.name}.${name}' has an invalid scope '${String(definition.scope)}'. Expected one of: ${SCOPES.join(', ')}.`,
      );
    }
    if (this.actions.has(name) || this.childCollection.schema.actions[name]) {
      throw new ValidationError(
        `Action '${name}' is already defined in collection '${this.name}'.`,
      );
    }
    if (definition.submitButtonLabel && definition.submitButtonLabel.length > 50) {
      throw new ValidationError(
        `The submitButtonLabel of action '${this.name}.${name}' is longer than 50 characters.`,
      );
    }
    this.actions.set(name, definition as ActionDefinition);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const actions = { ...childSchema.actions };
    for (const [name, definition] of this.actions) {
      actions[name] = {
        scope: definition.scope,
        generateFile: !!definition.generateFile,
        staticForm: isStaticForm(definition.form),
        description: definition.description,
        submitButtonLabel: definition.submitButtonLabel,
      };
    }
    return { ...childSchema, actions };
  }

  override async execute(
    caller: Caller,
    name: string,
    formValues: RecordData,
    filter?: Filter,
  ): Promise<ActionResult> {
    const definition = this.actions.get(name);
    if (!definition) return super.execute(caller, name, formValues, filter);
    const context = this.createContext(definition, caller, formValues, filter);
    const builder = new ActionResultBuilder();
    const result = await definition.execute(context, builder);
    return result ?? builder.success('Success');
  }

  override async getForm(
    caller: Caller,
    name: string,
    formValues: RecordData = {},
    filter?: Filter,
    metas: GetFormMetas = {},
  ): Promise<ActionFormElement[]> {
    const definition = this.actions.get(name);
    if (!definition) return super.getForm(caller, name, formValues, filter, metas);
    const values = { ...formValues };
    const context = this.createContext(
      definition,
      caller,
      values,
      filter,
      metas.changedField ?? null,
    );
    return computeForm(name, definition, context, values, metas);
  }

  private createContext(
    definition: ActionDefinition,
    caller: Caller,
    formValues: RecordData,
    filter: Filter | undefined,
    changedField: string | null = null,
  ): ActionContext {
    const Context = definition.scope === 'Single' ? ActionContextSingle : ActionContext;
    return new Context(this, caller, formValues, filter ?? new Filter(), changedField);
  }
}
