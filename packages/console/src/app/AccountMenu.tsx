/**
 * The account menu's own entries (besides "Sign out"): the colour scheme (System, Light, Dark;
 * Mantine remembers the choice in this browser), switching team or environment without signing
 * out, and changing one's password on the platform.
 */
import {
  Alert,
  Button,
  Group,
  Menu,
  Modal,
  PasswordInput,
  Stack,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsExchange,
  IconCheck,
  IconDeviceDesktop,
  IconKey,
  IconMoon,
  IconSun,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { changePassword } from './platform';
import { useSession } from './session';

/** The platform's bounds of a password (its account routes refuse others). */
export const PASSWORD_LENGTH = { min: 12, max: 200 } as const;

/** What is wrong with a new password and its confirmation, if anything. */
export function newPasswordProblem(password: string, confirmation: string): string | undefined {
  if (password.length < PASSWORD_LENGTH.min) {
    return `At least ${PASSWORD_LENGTH.min} characters.`;
  }
  if (password.length > PASSWORD_LENGTH.max) return `At most ${PASSWORD_LENGTH.max} characters.`;
  if (password !== confirmation) return 'The two passwords differ.';
  return undefined;
}

const SCHEMES: { value: MantineColorScheme; label: string; icon: ReactNode }[] = [
  { value: 'auto', label: 'System', icon: <IconDeviceDesktop size={16} /> },
  { value: 'light', label: 'Light', icon: <IconSun size={16} /> },
  { value: 'dark', label: 'Dark', icon: <IconMoon size={16} /> },
];

function PasswordModal({ onClose }: { onClose(): void }) {
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

/**
 * The menu entries (`items`, inside `Menu.Dropdown`) and what they open (`dialogs`, outside the
 * menu, which unmounts its dropdown when it closes).
 */
export function useAccountMenu(): { items: ReactNode; dialogs: ReactNode } {
  const { switchWorkspace } = useSession();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [changing, setChanging] = useState(false);
  return {
    items: (
      <>
        <Menu.Item leftSection={<IconArrowsExchange size={16} />} onClick={switchWorkspace}>
          Switch team or environment
        </Menu.Item>
        <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setChanging(true)}>
          Change password
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>Theme</Menu.Label>
        {SCHEMES.map((scheme) => (
          <Menu.Item
            key={scheme.value}
            leftSection={scheme.icon}
            rightSection={colorScheme === scheme.value ? <IconCheck size={14} /> : undefined}
            aria-checked={colorScheme === scheme.value}
            role="menuitemradio"
            closeMenuOnClick={false}
            onClick={() => setColorScheme(scheme.value)}
          >
            {scheme.label}
          </Menu.Item>
        ))}
        <Menu.Divider />
      </>
    ),
    dialogs: changing ? <PasswordModal onClose={() => setChanging(false)} /> : null,
  };
}
