/** HTML from an agent (action results, form HTML blocks), sanitized with DOMPurify before it is shown. */
import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'] });
}

export function SafeHtml({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <Typography>
      <div data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}
