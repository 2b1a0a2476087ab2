/**
 * The dialog over the page when the session has expired (session.tsx): sign in again, or out.
 * Loaded when first needed: the first screen does without it (and without Mantine's modal).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export function ReauthModal({
  error,
  busy,
  onSignOut,
  onSignIn,
}: {
  /** Why the last sign-in failed, if it did. */
  error: string | undefined;
  busy: boolean;
  onSignOut(): void;
  onSignIn(): void;
}) {
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Your session has expired"
      centered
    >
      <Stack>
        <Text size="sm">
          Sign in again to continue. What you were doing stays on the page and is sent once you are
          back.
        </Text>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onSignOut}>
            Sign out
          </Button>
          <Button loading={busy} onClick={onSignIn}>
            Sign in again
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
