import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A secret the platform shows once: the value, a copy button, and what to do with it. */
export function SecretOnce({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: ReactNode;
}) {
  return (
    <Alert color="yellow" title={`${label}: shown only now`}>
      <Stack gap="xs">
        <Text size="sm">
          Copy it now; the platform keeps only a fingerprint and cannot show it again.
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code
            block
            style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            aria-label={label}
            data-testid="secret-value"
          >
            {value}
          </Code>
          <CopyButton value={value} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                <ActionIcon
                  variant="light"
                  color={copied ? 'teal' : 'gray'}
                  onClick={copy}
                  aria-label={`Copy the ${label.toLowerCase()}`}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        {children}
      </Stack>
    </Alert>
  );
}

/** The end of a create dialog that issued a secret: the {@link SecretOnce} and a Done button. */
export function SecretIssued({
  label,
  value,
  onDone,
  children,
}: {
  label: string;
  value: string;
  onDone(): void;
  children?: ReactNode;
}) {
  return (
    <Stack>
      <SecretOnce label={label} value={value}>
        {children}
      </SecretOnce>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
