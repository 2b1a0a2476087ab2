/**
 * What a revert did, record by record: written (updated, deleted or created again), waiting for
 * an approval, gone, changed since the preview (not written), or refused.
 */
import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { RevertOutcome } from './apply-revert';
import { recordLabel } from './history-text';

export function RevertResults({
  outcomes,
  onClose,
}: {
  outcomes: RevertOutcome[];
  onClose: () => void;
}) {
  const of = (status: RevertOutcome['status']) =>
    outcomes.filter((outcome) => outcome.status === status);
  const [done, approval, gone, stale, failed] = [
    of('done'),
    of('approval'),
    of('gone'),
    of('stale'),
    of('failed'),
  ];
  const updated = done.filter(({ write }) => !write.kind);
  const deleted = done.filter(({ write }) => write.kind === 'delete');
  const created = done.filter(({ write }) => write.kind === 'create');
  const listOf = (items: RevertOutcome[]) => (
    <List size="sm">
      {items.slice(0, 20).map(({ write, message }) => (
        <List.Item key={`${write.collection}/${write.recordId}`}>
          {recordLabel(write.collection, write.recordId)}
          {message ? `: ${message}` : ''}
        </List.Item>
      ))}
      {items.length > 20 && <List.Item>and {items.length - 20} more</List.Item>}
    </List>
  );
  return (
    <Stack data-testid="revert-results">
      {done.length > 0 && (
        <Alert color="teal" title="Reverted">
          <Stack gap={2}>
            {updated.length > 0 && (
              <Text size="sm">
                {updated.length} record{updated.length === 1 ? '' : 's'} went back to the earlier
                values.
              </Text>
            )}
            {deleted.length > 0 && (
              <Text size="sm">
                {deleted.length} record{deleted.length === 1 ? '' : 's'} deleted.
              </Text>
            )}
            {created.length > 0 && (
              <Text size="sm">
                {created.length} record{created.length === 1 ? '' : 's'} created again:{' '}
                {created
                  .slice(0, 20)
                  .map(({ write, createdId }) =>
                    createdId && createdId !== write.recordId
                      ? `${recordLabel(write.collection, write.recordId)} as #${createdId}`
                      : recordLabel(write.collection, write.recordId),
                  )
                  .join(', ')}
                {created.length > 20 ? ` and ${created.length - 20} more` : ''}.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {approval.length > 0 && (
        <Alert color="orange" title="Approval required">
          <Text size="sm">These changes need an approval before they are made:</Text>
          {listOf(approval)}
        </Alert>
      )}
      {gone.length > 0 && (
        <Alert color="gray" title="Not found">
          <Text size="sm">These records no longer exist or are outside what you may see:</Text>
          {listOf(gone)}
        </Alert>
      )}
      {stale.length > 0 && (
        <Alert color="orange" title="Changed since the preview">
          <Text size="sm">
            These records changed after the preview was made and were left as they are (open the
            preview again to see them as they are now):
          </Text>
          {listOf(stale)}
        </Alert>
      )}
      {failed.length > 0 && (
        <Alert color="red" title="Refused">
          {listOf(failed)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Stack>
  );
}
