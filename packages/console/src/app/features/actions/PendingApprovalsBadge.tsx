/**
 * The number of approval requests the signed-in user may review, beside "Approvals" in the
 * sidebar. It shares the approvals page's "To review" query, so approving or rejecting there
 * updates it at once; the live stream's approval events make it stale; it is read again when the
 * tab regains focus, on navigation (at most every 15 s) and, while the stream is down, every minute.
 * The approvals API (protocol/approvals.ts) loads with the first count, off the first screen.
 */
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../session';
import { approvalsOptions } from './platform-access';
import { useLivePoll } from '../live/use-live-poll';

const POLL_MS = 60_000;
const ON_NAVIGATION_MS = 15_000;

export function PendingApprovalsBadge() {
  const { workspace, session } = useSession();
  const { pathname } = useLocation();
  const pending = useQuery({
    queryKey: ['approvals', workspace.id, 'review'],
    queryFn: async () => {
      const { ApprovalsApi } = await import('../../../protocol/approvals');
      const approvals = new ApprovalsApi(approvalsOptions(workspace, session.renderingId));
      return approvals.list({ status: 'pending' });
    },
    refetchInterval: useLivePoll(POLL_MS),
    retry: false,
  });
  const { refetch, dataUpdatedAt } = pending;
  useEffect(() => {
    if (Date.now() - dataUpdatedAt > ON_NAVIGATION_MS) void refetch();
    // Only a navigation asks again, not each answer.
  }, [pathname]);
  const count = (pending.data ?? []).filter((approval) => approval.canApprove).length;
  if (count === 0) return null;
  return (
    <Badge
      size="sm"
      circle={count < 10}
      color="red"
      data-testid="pending-approvals"
      aria-label={`${count} pending approval request${count === 1 ? '' : 's'} to review`}
    >
      {count}
    </Badge>
  );
}
