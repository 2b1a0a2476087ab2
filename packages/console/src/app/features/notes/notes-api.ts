/** Notes of the public API (admin-api.md §2.1–4.4), as the console reads and writes them. */
import DOMPurify from 'dompurify';

export interface NoteUser {
  id: number;
  email: string;
  username: string;
}

export interface NoteMessage {
  content: string;
  createdAt: string;
  user: NoteUser;
}

export interface Note {
  id: number;
  title: string;
  recordId: string;
  createdAt: string;
  updatedAt: string;
  archivedAt?: string;
  collection?: { name: string };
  messages: NoteMessage[];
  user: NoteUser;
  team: { name: string };
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

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
