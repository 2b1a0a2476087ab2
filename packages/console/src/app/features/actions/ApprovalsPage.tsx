/**
 * Approvals of the environment: the queue an approver reviews (approve or reject with a comment;
 * an approval runs the action on the agent with the platform-signed request, then records the
 * outcome), and the requests of the signed-in user with their status and outcome.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLivePoll } from '../live/use-live-poll';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  humanize,
  signedActionBody,
  type ActionApproval,
  type SchemaAction,
} from '../../../protocol';
import { collectionOf, useDataBase, useSchema } from '../../data';
import { useSession } from '../../session';
import { formatActionValue } from './action-value';
import { useApprovals } from './use-approvals';
import { callWebhook, saveFile } from './results';
import { invalidateAfterAction } from './rights';
import { SafeHtml } from './SafeHtml';
import { formatWhen } from '../../components/when';
import { ErrorMessage } from '../../components/ErrorMessage';
import { recordPath } from '../../data-paths';

const STATUS_COLOR = { pending: 'yellow', approved: 'green', rejected: 'red' } as const;

type View = 'review' | 'mine' | 'all';

interface Outcome {
  message: string;
  html?: string;
  failed?: boolean;
}

/** A request this page reviewed: its latest state and, once approved, what the run answered. */
interface Reviewed {
  approval: ActionApproval;
  result?: Outcome;
}

export function ApprovalsPage() {
  const approvals = useApprovals();
  const { workspace } = useSession();
  const [view, setView] = useState<View>('review');
  const list = useQuery({
    queryKey: ['approvals', workspace.id, view],
    queryFn: () =>
      approvals.list(
        view === 'review' ? { status: 'pending' } : view === 'mine' ? { mine: true } : {},
      ),
    // The live stream's approval events refresh it; polling only while the stream is down.
    refetchInterval: useLivePoll(5000),
  });
  // What the approver just reviewed stays on the page with its outcome until they leave it: the
  // queue lists pending requests only, and its next refetch would otherwise take the card (and
  // the result of the run) away under the pointer.
  const [reviewed, setReviewed] = useState<ReadonlyMap<string, Reviewed>>(new Map());
  const onReviewed = (entry: Reviewed) =>
    setReviewed((current) => new Map(current).set(entry.approval.id, entry));
  const listed = (list.data ?? []).filter((item) => view !== 'review' || item.canApprove);
  const kept =
    view === 'review'
      ? [...reviewed.values()]
          .map((entry) => entry.approval)
          .filter((approval) => !listed.some((item) => item.id === approval.id))
      : [];
  const items = [...kept, ...listed];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Approvals</Title>
        <SegmentedControl
          value={view}
          onChange={(value) => setView(value as View)}
          data={[
            { value: 'review', label: 'To review' },
            { value: 'mine', label: 'My requests' },
            { value: 'all', label: 'All' },
          ]}
        />
      </Group>
      {list.isPending && <Skeleton h={120} />}
      {list.isError && (
        <Alert color="red" title="The approvals could not be loaded">
          <ErrorMessage error={list.error} />
        </Alert>
      )}
      {list.data && items.length === 0 && (
        <Text c="dimmed">
          {view === 'review'
            ? 'Nothing waits for your approval.'
            : view === 'mine'
              ? 'You have requested no approval.'
              : 'No approval request in this environment.'}
        </Text>
      )}
      {items.map((approval) => (
        <ApprovalCard
          key={approval.id}
          approval={approval}
          result={reviewed.get(approval.id)?.result}
          onReviewed={onReviewed}
        />
      ))}
    </Stack>
  );
}

function ApprovalCard({
  approval,
  result,
  onReviewed,
}: {
  approval: ActionApproval;
  result?: Outcome;
  onReviewed: (entry: Reviewed) => void;
}) {
  const approvals = useApprovals();
  const { client, workspace } = useSession();
  const schema = useSchema().data;
  const base = useDataBase();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject'>();
  const collection = collectionOf(schema, approval.collectionName);
  const action = (collection?.actions as SchemaAction[] | undefined)?.find(
    (item) =>
      (approval.smartActionId && item.id === approval.smartActionId) ||
      item.name === approval.actionName,
  );

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['approvals', workspace.id] });

  const approve = async () => {
    if (!action) return;
    setBusy('approve');
    try {
      const approved = await approvals.approve(approval.id, comment.trim() || undefined);
      const { signed } = approved;
      onReviewed({ approval: approved.approval });
      let outcome: Outcome;
      try {
        const answer = await client.executeAction(action.endpoint, signedActionBody(signed));
        switch (answer.kind) {
          case 'success':
            await invalidateAfterAction(queryClient, approval.collectionName, answer.refresh);
            outcome = { message: answer.message || 'The action ran.', html: answer.html };
            break;
          case 'error':
            outcome = { message: answer.message, html: answer.html, failed: true };
            break;
          case 'file':
            saveFile(answer.blob, answer.filename);
            outcome = { message: `Downloaded ${answer.filename}.` };
            break;
          case 'redirect':
            outcome = { message: `The agent points to ${answer.to}.` };
            break;
          case 'webhook':
            outcome = { message: `The webhook answered ${await callWebhook(answer)}.` };
            break;
          case 'approval':
            outcome = { message: answer.message, failed: true };
            break;
        }
      } catch (error) {
        outcome = { message: (error as Error).message, failed: true };
      }
      const recorded = await approvals
        .recordOutcome(approval.id, outcome.failed ? 'failed' : 'succeeded', outcome.message)
        .catch(() => approved.approval);
      onReviewed({ approval: recorded, result: outcome });
      notifications.show({
        color: outcome.failed ? 'red' : 'green',
        title: outcome.failed ? 'Approved, but the action failed' : 'Approved and run',
        message: outcome.message,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Not approved',
        message: (error as Error).message,
      });
    } finally {
      setBusy(undefined);
      await refresh();
    }
  };

  const reject = async () => {
    setBusy('reject');
    try {
      onReviewed({ approval: await approvals.reject(approval.id, comment.trim() || undefined) });
      notifications.show({ color: 'orange', message: `Request #${approval.id} rejected.` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Not rejected',
        message: (error as Error).message,
      });
    } finally {
      setBusy(undefined);
      await refresh();
    }
  };

  return (
    <Card withBorder padding="md" data-testid={`approval-${approval.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Text fw={600}>{approval.actionName}</Text>
            <Text c="dimmed" size="sm">
              on {humanize(approval.collectionName)}
            </Text>
            <Badge color={STATUS_COLOR[approval.status]} data-testid="approval-status">
              {approval.status}
            </Badge>
            {approval.outcome && (
              <Badge color={approval.outcome === 'succeeded' ? 'teal' : 'red'} variant="light">
                {approval.outcome === 'succeeded' ? 'ran' : 'run failed'}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            #{approval.id} · requested by {approval.requester?.name || approval.requester?.email} ·{' '}
            {formatWhen(approval.createdAt)}
          </Text>
        </Group>
        <Group gap={6}>
          <Text size="sm">Records:</Text>
          {approval.recordIds.map((id) => (
            <Anchor
              key={id}
              component={Link}
              size="sm"
              to={recordPath(base, approval.collectionName, id)}
            >
              #{id}
            </Anchor>
          ))}
        </Group>
        {approval.inputs.length > 0 && (
          <Table withTableBorder withColumnBorders fz="sm" maw={560}>
            <Table.Tbody>
              {approval.inputs.map((input) => (
                <Table.Tr key={input.name}>
                  <Table.Td w={180}>{input.name}</Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-word' }}>
                      {formatActionValue(input, input.value)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {approval.comments.map((item) => (
          <Text key={item.id} size="sm">
            <Text span fw={600}>
              {item.author.name || item.author.email}:
            </Text>{' '}
            {item.comment}
          </Text>
        ))}
        {approval.reviewer && (
          <Text size="sm" c="dimmed">
            {approval.status === 'approved' ? 'Approved' : 'Rejected'} by{' '}
            {approval.reviewer.name || approval.reviewer.email}
            {approval.outcomeMessage ? ` · ${approval.outcomeMessage}` : ''}
          </Text>
        )}
        {result && (
          <Alert color={result.failed ? 'red' : 'green'} title={result.message}>
            {result.html && <SafeHtml html={result.html} />}
          </Alert>
        )}
        {approval.canApprove && approval.status === 'pending' && (
          <Stack gap="xs">
            {!action && (
              <Alert color="yellow">
                The agent’s schema has no action “{approval.actionName}” on{' '}
                {approval.collectionName}: it cannot run from here.
              </Alert>
            )}
            <Textarea
              label="Comment"
              placeholder="Why you approve or reject"
              value={comment}
              onChange={(event) => setComment(event.currentTarget.value)}
              autosize
              minRows={1}
            />
            <Group justify="flex-end">
              <Button
                color="red"
                variant="light"
                onClick={reject}
                loading={busy === 'reject'}
                disabled={busy !== undefined}
              >
                Reject
              </Button>
              <Button
                onClick={approve}
                loading={busy === 'approve'}
                disabled={!action || busy !== undefined}
              >
                Approve and run
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
