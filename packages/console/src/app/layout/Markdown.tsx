/**
 * The markdown widget: `marked` without raw HTML (dropped), web and mail links only, then
 * DOMPurify (SafeHtml.tsx's sanitizer) on the result, so no HTML of a record reaches the page
 * unsanitized. Loaded lazily by WidgetCell.tsx.
 */
import { Marked } from 'marked';
import { useMemo } from 'react';
import { sanitizeHtml } from '../features/actions/SafeHtml';

const SAFE_HREF = /^(https?:|mailto:|#)/i;

/** Markdown without raw HTML (dropped) and with web and mail links only. */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  walkTokens(token) {
    if (token.type === 'html') token.text = '';
    if ((token.type === 'link' || token.type === 'image') && !SAFE_HREF.test(token.href)) {
      token.href = '#';
    }
  },
});

/** Markdown as sanitized HTML: no raw HTML of the source kept, then DOMPurify on the result. */
export function markdownHtml(source: string): string {
  return sanitizeHtml(markdown.parse(source, { async: false }));
}

export default function Markdown({ source }: { source: string }) {
  const html = useMemo(() => markdownHtml(source), [source]);
  return <div className="lw-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
