/**
 * An error in the user's words (`errorText`), with the protocol's own text behind a "Technical
 * details" toggle, and an internal error's reference to give an administrator.
 */
import { Anchor, Code, Collapse, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorText, type ErrorText, type ErrorTextContext } from '../../protocol';

export function ErrorMessage({
  error,
  context,
}: {
  /** An exception, a message, or text `errorText` already made. */
  error: unknown;
  context?: ErrorTextContext;
}) {
  const [open, setOpen] = useState(false);
  const text: ErrorText =
    typeof error === 'object' && error !== null && 'message' in error && !(error instanceof Error)
      ? (error as ErrorText)
      : errorText(error, context);
  const details = text.technical ?? (text.reference ? `Reference ${text.reference}` : undefined);
  return (
    <Stack gap={4} data-testid="error-message">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {text.message}
      </Text>
      {details && (
        <>
          <Anchor
            component="button"
            type="button"
            size="xs"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
          >
            {open ? 'Hide technical details' : 'Technical details'}
          </Anchor>
          <Collapse in={open}>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {details}
              {text.reference && text.technical ? `\nReference ${text.reference}` : ''}
            </Code>
          </Collapse>
        </>
      )}
    </Stack>
  );
}
