/**
 * The dialog of one action: its form (from the schema, or `hooks/load`), kept in step with the
 * agent (`hooks/change` when a field with a change hook changes, `hooks/search` for dynamic
 * dropdowns), then the run (§9.2) and its result (§9.6): success message and sanitized HTML,
 * error, file download, redirect, webhook, reloads — or, when the role needs an approval (§9.7),
 * the request filed on the platform. When the user's rights say the action needs an approval, the
 * form says so before anything is sent and its button requests the approval directly. Values are
 * checked against the form's limits first; the first error is scrolled to and focused.
 */
import { Alert, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  executeAttributes,
  formPages,
  missingRequired,
  redirectTarget,
  valueProblem,
  type ActionForm,
  type ActionResult,
  type ActionSelection,
  type SchemaAction,
} from '../../../protocol';
import { ErrorMessage } from '../../components/ErrorMessage';
import { recordCount } from '../../components/table/selection';
import { useSession } from '../../session';
import { useWorkspace } from '../../workspace';
import { ActionFormPage } from './ActionFormPage';
import { useApprovals } from './use-approvals';
import { focusFirstError } from './focus-error';
import { callWebhook, saveFile } from './results';
import { invalidateAfterAction } from './rights';
import { SafeHtml } from './SafeHtml';
import { useActionForm } from './use-action-form';

export interface ActionDialogProps {
  collection: string;
  action: SchemaAction;
  selection: ActionSelection;
  onClose(): void;
}

type Shown =
  | { kind: 'form' }
  | { kind: 'success'; message: string; html: string }
  | { kind: 'approval'; message: string }
  | { kind: 'requested'; id: string };

/** The problems of the form's values: required fields left empty, then values over a limit. */
function formProblems(form: ActionForm): Record<string, string> {
  const problems = missingRequired(form);
  for (const field of form.fields) {
    if (problems[field.field] || field.isReadOnly) continue;
    const parameters = (field.widgetEdit?.parameters ?? {}) as { min?: unknown; max?: unknown };
    const type = Array.isArray(field.type) ? 'Array' : field.type;
    const problem = valueProblem(
      {
        type,
        enums: field.enums,
        min: typeof parameters.min === 'number' ? parameters.min : null,
        max: typeof parameters.max === 'number' ? parameters.max : null,
      },
      field.label ?? field.field,
      field.value,
    );
    if (problem) problems[field.field] = problem;
  }
  return problems;
}

/** A failure shown above the form: the words of `errorText`, and sanitized HTML of the agent. */
type Failure = { error: unknown; html?: string };

export function ActionDialog({ collection, action, selection, onClose }: ActionDialogProps) {
  const { client } = useSession();
  const { canAction } = useWorkspace();
  // The user's rights (GET /v1/me) say whether the role must have this action approved.
  const needsApproval = canAction(collection, action.name, 'approvalRequired');
  const approvals = useApprovals();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure>();
  const { form, loadError, searching, change, search } = useActionForm({
    collection,
    action,
    selection,
    onEdit: (field) => setErrors(({ [field]: _, ...rest }) => rest),
    onFailure: (error) => setFailure({ error }),
  });
  const body = useRef<HTMLDivElement>(null);
  /** Bumped when a submit finds errors: the first one is then scrolled to and focused. */
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused) focusFirstError(body.current);
  }, [refused]);
  const [running, setRunning] = useState(false);
  const [page, setPage] = useState(0);
  const [shown, setShown] = useState<Shown>({ kind: 'form' });
  const [comment, setComment] = useState('');
  const tz = client.timezone;

  const apply = async (result: ActionResult) => {
    switch (result.kind) {
      case 'success':
        await invalidateAfterAction(queryClient, collection, result.refresh);
        if (result.html) {
          setShown({ kind: 'success', message: result.message, html: result.html });
        } else {
          notifications.show({
            color: 'green',
            message: result.message || `${action.name}: done.`,
          });
          onClose();
        }
        return;
      case 'error':
        setFailure({ error: result.message, html: result.html });
        return;
      case 'file':
        saveFile(result.blob, result.filename);
        notifications.show({ color: 'green', message: `Downloaded ${result.filename}.` });
        onClose();
        return;
      case 'redirect': {
        const target = redirectTarget(result.to);
        if (!target) {
          setFailure({
            error: `The agent redirected to ${result.to}, which the console does not open.`,
          });
          return;
        }
        onClose();
        if ('internal' in target) navigate(target.internal);
        else window.open(target.external, '_blank', 'noopener');
        return;
      }
      case 'webhook':
        try {
          const status = await callWebhook(result);
          notifications.show({
            color: status < 400 ? 'green' : 'red',
            message: `${action.name}: the webhook answered ${status}.`,
          });
          onClose();
        } catch (error) {
          setFailure({ error: `The webhook call failed: ${(error as Error).message}` });
        }
        return;
      case 'approval':
        setShown({ kind: 'approval', message: result.message });
        return;
    }
  };

  const submit = async () => {
    if (!form) return;
    const problems = formProblems(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      // A problem on another page of the form: show that page first.
      const first = pages.findIndex((elements) =>
        elements.some((item) =>
          item.component === 'input'
            ? problems[item.fieldId]
            : item.component === 'row' && item.fields.some((input) => problems[input.fieldId]),
        ),
      );
      if (first >= 0 && first !== page) setPage(first);
      setRefused((count) => count + 1);
      return;
    }
    if (needsApproval) return requestApproval();
    setFailure(undefined);
    setRunning(true);
    try {
      await apply(
        await client.executeAction(action.endpoint, {
          data: {
            type: 'custom-action-requests',
            attributes: executeAttributes(collection, action, selection, tz, form),
          },
        }),
      );
    } catch (error) {
      setFailure({ error });
    } finally {
      setRunning(false);
    }
  };

  const requestApproval = async () => {
    if (!form) return;
    setRunning(true);
    setFailure(undefined);
    try {
      const attributes = executeAttributes(collection, action, selection, tz, form);
      const approval = await approvals.request({
        actionName: action.name,
        collectionName: collection,
        smartActionId: action.id ?? null,
        recordIds: selection.ids,
        values: attributes.values as Record<string, unknown>,
        fields: form.fields,
        request: attributes,
        comment: comment.trim() || undefined,
      });
      setShown({ kind: 'requested', id: approval.id });
    } catch (error) {
      setFailure({ error });
    } finally {
      setRunning(false);
    }
  };

  const commentField = (
    <Textarea
      label="Comment for the approver"
      value={comment}
      onChange={(event) => setComment(event.currentTarget.value)}
      autosize
      minRows={2}
    />
  );
  const pages = form ? formPages(form) : [];
  const layoutPage = form?.layout.find((item) => item.component === 'page') as
    { nextButtonLabel?: string; previousButtonLabel?: string } | undefined;
  const lastPage = page >= pages.length - 1;
  const selectedCount =
    selection.count ?? (selection.allRecords ? undefined : selection.ids.length);
  const target =
    selectedCount === undefined || action.type === 'global'
      ? ''
      : ` · ${recordCount(selectedCount)}`;

  return (
    <Modal opened onClose={onClose} title={`${action.name}${target}`} size="lg" trapFocus>
      <Stack gap="sm" data-testid="action-dialog" ref={body} miw={0}>
        {action.description && (
          <Text c="dimmed" size="sm">
            {action.description}
          </Text>
        )}
        {failure && (
          <Alert color="red" title="The action failed" data-testid="action-error">
            <ErrorMessage error={failure.error} />
            {failure.html && <SafeHtml html={failure.html} />}
          </Alert>
        )}
        {shown.kind === 'success' && (
          <>
            <Alert color="green" title={shown.message || 'Done'} data-testid="action-success">
              <SafeHtml html={shown.html} testId="action-result-html" />
            </Alert>
            <CloseButton onClose={onClose} />
          </>
        )}
        {shown.kind === 'approval' && (
          <>
            <Alert color="yellow" title="Approval required" data-testid="approval-required">
              {shown.message} Your request, with the values you entered, goes to the people who may
              approve it; the action runs once one of them approves.
            </Alert>
            {commentField}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={requestApproval} loading={running}>
                Request approval
              </Button>
            </Group>
          </>
        )}
        {shown.kind === 'requested' && (
          <>
            <Alert color="blue" title="Approval requested" data-testid="approval-requested">
              Request #{shown.id} is waiting for an approver. Follow it under Approvals.
            </Alert>
            <CloseButton onClose={onClose} />
          </>
        )}
        {shown.kind === 'form' && (
          <>
            {needsApproval && !loadError && (
              <Alert color="yellow" title="Needs approval" data-testid="approval-notice">
                Your role needs an approval to run “{action.name}”. Submitting sends a request, with
                the values you enter, to the people who may approve it; the action runs once one of
                them approves.
              </Alert>
            )}
            {loadError !== undefined && (
              <Alert color="orange" title={`“${action.name}” cannot be run here`} role="alert">
                <ErrorMessage error={loadError} />
              </Alert>
            )}
            {!form && !loadError && (
              <Group gap="xs">
                <Loader size="sm" />
                <Text size="sm">Loading the form…</Text>
              </Group>
            )}
            {form && form.fields.length === 0 && form.layout.length === 0 && (
              <Text size="sm">
                Run “{action.name}”{target ? ` on ${target.slice(3)}` : ''}?
              </Text>
            )}
            {form && (
              <ActionFormPage
                form={form}
                elements={pages[page] ?? []}
                errors={errors}
                searching={searching}
                onChange={change}
                onSearch={search}
              />
            )}
            {form && needsApproval && lastPage && commentField}
            <Group justify="space-between">
              <Group>
                {page > 0 && (
                  <Button variant="default" onClick={() => setPage(page - 1)}>
                    {layoutPage?.previousButtonLabel ?? 'Previous'}
                  </Button>
                )}
              </Group>
              <Group>
                <Button variant="default" onClick={onClose}>
                  Cancel
                </Button>
                {lastPage ? (
                  <Button onClick={submit} loading={running} disabled={!form}>
                    {needsApproval ? 'Request approval' : action.submitButtonLabel || action.name}
                  </Button>
                ) : (
                  <Button onClick={() => setPage(page + 1)}>
                    {layoutPage?.nextButtonLabel ?? 'Next'}
                  </Button>
                )}
              </Group>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}

/** The Close button that ends the dialog once the action ran or its approval was requested. */
function CloseButton({ onClose }: { onClose(): void }) {
  return (
    <Group justify="flex-end">
      <Button onClick={onClose} data-autofocus>
        Close
      </Button>
    </Group>
  );
}
