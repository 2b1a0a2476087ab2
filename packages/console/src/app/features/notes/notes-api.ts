/** Notes of the public API (admin-api.md §2.1–4.4), as the console reads and writes them. */
import type {
  NoteItem,
  NoteMessageItem,
  PublicApiPage,
  PublicApiUser,
} from '@canopy/platform-protocol';
import DOMPurify from 'dompurify';

export type NoteUser = PublicApiUser;
export type NoteMessage = NoteMessageItem;
export type Note = NoteItem;
/** A page of a public API list. */
export type Page<T> = PublicApiPage<T>;

/** Message HTML as the browser shows it: sanitized again here (the platform sanitizes too). */
export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The HTML of a message typed in the console: paragraphs, `**bold**`, `_italic_`, links and
 * `@someone@example.com` mentions (shown in bold); everything else is text.
 */
export function messageHtml(text: string): string {
  return text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => {
      const html = escape(paragraph)
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|\s)_(.+?)_(?=\s|$)/g, '$1<em>$2</em>')
        .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1" rel="noopener noreferrer">$1</a>')
        .replace(/(^|\s)@([^\s@<]+@[^\s@<]+\.[^\s@<]+)/g, '$1<strong class="mention">@$2</strong>')
        .replace(/\n/g, '<br>');
      return `<p>${html}</p>`;
    })
    .join('');
}
