/**
 * The account menu's own entries (besides "Sign out"): the colour scheme (System, Light, Dark;
 * Mantine remembers the choice in this browser), switching team or environment without signing
 * out, and changing one's password on the platform.
 */
import { Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import {
  IconArrowsExchange,
  IconCheck,
  IconDeviceDesktop,
  IconKey,
  IconMoon,
  IconSun,
} from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSession } from './session';

// The password form loads when first opened: the first screen does without it.
const PasswordModal = lazy(() => import('./PasswordModal'));

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
    dialogs: changing ? (
      <Suspense fallback={null}>
        <PasswordModal onClose={() => setChanging(false)} />
      </Suspense>
    ) : null,
  };
}
