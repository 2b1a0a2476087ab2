/** The account menu's "Change your password" dialog (loaded when first opened). */
import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { newPasswordProblem, PASSWORD_LENGTH } from './AccountMenu';
import { changePassword } from './platform';

export default function PasswordModal({ onClose }: { onClose(): void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const problem = newPasswordProblem(next, confirmation);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || !current) return;
    setBusy(true);
    setError(undefined);
    try {
      await changePassword(current, next);
      notifications.show({
        color: 'teal',
        message: 'Your password is changed. Sign in with it from now on.',
      });
      onClose();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Change your password">
      <form onSubmit={submit}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            data-autofocus
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            description={`${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`}
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={
              touched && problem && problem !== 'The two passwords differ.' ? problem : undefined
            }
          />
          <PasswordInput
            label="New password again"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            error={touched && problem === 'The two passwords differ.' ? problem : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
