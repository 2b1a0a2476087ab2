/**
 * The form of one action dialog, kept in step with the agent: the form from the schema, or from
 * `hooks/load` when the schema has none; `hooks/change` when a field with a change hook changes
 * (typing waits for a pause, a choice calls at once); `hooks/search` for dynamic dropdowns.
 */
import { useEffect, useRef, useState } from 'react';
import {
  changeBody,
  loadBody,
  searchBody,
  staticForm,
  withValue,
  type ActionField,
  type ActionForm,
  type ActionSelection,
  type SchemaAction,
} from '../../../protocol';
import { useSession } from '../../session';

export interface ActionFormOptions {
  collection: string;
  action: SchemaAction;
  selection: ActionSelection;
  /** A field the user changed: its error, if any, no longer stands. */
  onEdit(field: string): void;
  /** A change or search hook failed. */
  onFailure(error: unknown): void;
}

export interface ActionFormState {
  /** The form as the agent last gave it, with the user's values; `undefined` while it loads. */
  form: ActionForm | undefined;
  /** Why the form could not be loaded. */
  loadError: unknown;
  /** The field whose dynamic options are being searched. */
  searching: string | undefined;
  change(field: ActionField, value: unknown): void;
  search(field: ActionField, text: string): void;
}

export function useActionForm({
  collection,
  action,
  selection,
  onEdit,
  onFailure,
}: ActionFormOptions): ActionFormState {
  const { client } = useSession();
  const tz = client.timezone;
  const [form, setFormState] = useState<ActionForm | undefined>(() => staticForm(action));
  // The form as last set, for hook answers that arrive after later edits.
  const formRef = useRef(form);
  const setForm = (next: ActionForm | undefined) => {
    formRef.current = next;
    setFormState(next);
  };
  const [loadError, setLoadError] = useState<unknown>();
  const [searching, setSearching] = useState<string>();
  /** Change-hook calls sent, and the user's edits: an answer is applied only when it is the
   * answer to the last call and nothing was edited since that call was sent. */
  const hookCalls = useRef(0);
  const edits = useRef(0);
  const searchTimer = useRef<number>(undefined);
  const changeTimer = useRef<number>(undefined);

  useEffect(() => {
    if (form) return;
    let cancelled = false;
    client
      .actionHook(action.endpoint, 'load', loadBody(collection, selection, tz))
      .then((loaded) => !cancelled && setForm(loaded))
      .catch((error: Error) => !cancelled && setLoadError(error));
    return () => {
      cancelled = true;
    };
    // The form loads once per dialog.
  }, []);

  const runChangeHook = (changed: string) => {
    const sent = formRef.current;
    if (!sent) return;
    const call = ++hookCalls.current;
    const edit = edits.current;
    client
      .actionHook(action.endpoint, 'change', changeBody(collection, selection, tz, sent, changed))
      .then((answer) => {
        if (call !== hookCalls.current) return;
        // Edited while the agent computed: its answer would undo the edit; ask again.
        if (edit !== edits.current) return runChangeHook(changed);
        setForm(answer);
      })
      .catch((error: Error) => onFailure(error));
  };

  const change = (field: ActionField, value: unknown) => {
    const current = formRef.current;
    if (!current) return;
    edits.current += 1;
    setForm(withValue(current, field.field, value));
    onEdit(field.field);
    if (field.hook) {
      window.clearTimeout(changeTimer.current);
      // Typing calls the hook once the user pauses; choices call it at once.
      const typed = ['String', 'Number', 'Json'].includes(String(field.type)) && !field.widgetEdit;
      changeTimer.current = window.setTimeout(() => runChangeHook(field.field), typed ? 300 : 0);
    }
  };

  const search = (field: ActionField, text: string) => {
    if (!form) return;
    window.clearTimeout(searchTimer.current);
    searchTimer.current = window.setTimeout(() => {
      setSearching(field.field);
      client
        .actionHook(
          action.endpoint,
          'search',
          searchBody(collection, selection, tz, form, field.field, text),
        )
        .then((answer) => {
          const options = answer.fields.find((item) => item.field === field.field);
          const current = formRef.current;
          if (!options || !current) return;
          setForm({
            ...current,
            fields: current.fields.map((item) =>
              item.field === field.field ? { ...options, value: item.value } : item,
            ),
          });
        })
        .catch((error: Error) => onFailure(error))
        .finally(() => setSearching(undefined));
    }, 250);
  };

  return { form, loadError, searching, change, search };
}
