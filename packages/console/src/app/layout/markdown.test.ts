// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { markdownHtml } from './Markdown';

describe('markdownHtml', () => {
  it('renders markdown and strips raw HTML that could run', () => {
    const html = markdownHtml(
      '**bold** [x](javascript:alert(1)) <img src=x onerror="alert(1)"><script>alert(1)</script>',
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toMatch(/onerror|<script|javascript:/i);
  });
});
