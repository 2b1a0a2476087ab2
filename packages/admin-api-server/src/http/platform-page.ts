import { createHash } from 'node:crypto';
import { Router } from 'express';
import { escapeHtml as escape } from './html-escape';

/** Where the platform serves the stylesheet and the script of its own HTML pages. */
export const PLATFORM_UI_PATH = '/platform-ui';

/**
 * The look of the platform's pages (sign-in, consent, sign-out, device login, password): the
 * Console's fonts, colours and spacing (its theme: the darkest teal for buttons, text shades that
 * read 4.5:1), light or dark as the system prefers.
 */
export const PLATFORM_STYLESHEET = `
:root {
  color-scheme: light dark;
  --font: Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --bg: linear-gradient(135deg, #e6fcf5 0%, #f8f9fa 60%);
  --paper: #fff;
  --text: #000;
  --dimmed: #495057;
  --border: #dee2e6;
  --input: #fff;
  --primary: #087f5b;
  --primary-hover: #077050;
  --on-primary: #fff;
  --focus: #099268;
  --alert-bg: #fff5f5;
  --alert-text: #c92a2a;
  --alert-border: #ffc9c9;
  --shadow: 0 1px 3px rgb(0 0 0 / 5%), 0 10px 15px -5px rgb(0 0 0 / 5%), 0 7px 7px -5px rgb(0 0 0 / 4%);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: linear-gradient(135deg, #0b2e24 0%, #1f1f1f 60%);
    --paper: #2e2e2e;
    --text: #c9c9c9;
    --dimmed: #b8b8b8;
    --border: #424242;
    --input: #2e2e2e;
    --primary: #087f5b;
    --primary-hover: #077050;
    --focus: #38d9a9;
    --alert-bg: rgb(250 82 82 / 15%);
    --alert-text: #ffa8a8;
    --alert-border: rgb(250 82 82 / 40%);
    --shadow: 0 1px 3px rgb(0 0 0 / 30%), 0 10px 15px -5px rgb(0 0 0 / 30%);
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; min-height: 100vh; }
body {
  font-family: var(--font); font-size: 1rem; line-height: 1.55; color: var(--text);
  background: var(--bg); display: flex; align-items: center; justify-content: center; padding: 1rem;
  -webkit-font-smoothing: antialiased;
}
main {
  background: var(--paper); border: 1px solid var(--border); border-radius: 8px;
  box-shadow: var(--shadow); padding: 2rem; width: 420px; max-width: 100%;
}
.brand { display: flex; align-items: center; gap: 8px; font-weight: 700; font-size: 1.125rem; margin-bottom: 1rem; }
h1 { font-size: 1.625rem; line-height: 1.35; margin: 0 0 1rem; font-weight: 700; }
p, dl, ul { margin: 0 0 1rem; font-size: 0.875rem; }
dt { color: var(--dimmed); font-size: 0.75rem; }
dd { margin: 0 0 0.5rem; }
form { display: flex; flex-direction: column; gap: 1rem; margin: 0; }
label { display: flex; flex-direction: column; gap: 4px; font-size: 0.875rem; font-weight: 500; }
input[type=email], input[type=password], input[type=text] {
  font: inherit; font-size: 0.875rem; height: 36px; padding: 0 12px; color: var(--text);
  background: var(--input); border: 1px solid var(--border); border-radius: 8px;
}
input:focus-visible, button:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
input:focus { border-color: var(--focus); }
.actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
button {
  font: inherit; font-size: 0.875rem; font-weight: 600; height: 36px; padding: 0 18px;
  border-radius: 8px; border: 1px solid transparent; cursor: pointer;
  background: var(--primary); color: var(--on-primary);
}
form > button { width: 100%; }
button:hover { background: var(--primary-hover); }
button.secondary { background: transparent; color: var(--text); border-color: var(--border); }
button.secondary:hover { background: var(--border); }
[role=alert], [role=status] {
  border: 1px solid var(--alert-border); background: var(--alert-bg); color: var(--alert-text);
  border-radius: 8px; padding: 0.75rem 1rem;
}
[role=status] { border-color: var(--border); background: transparent; color: var(--text); }
.hint { color: var(--dimmed); font-size: 0.75rem; }
`;

/**
 * Rewrites each `<time data-local datetime="…">` of a page to the reader's local time (the
 * server does not know the time zone; without scripts the text stays in UTC).
 */
export const LOCAL_TIME_SCRIPT = `document.querySelectorAll('time[data-local]').forEach(function (t) {
  var d = new Date(t.getAttribute('datetime'));
  if (!isNaN(d)) t.textContent = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
});
`;

const version = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
const STYLESHEET_URL = `${PLATFORM_UI_PATH}/page.${version(PLATFORM_STYLESHEET)}.css`;
const SCRIPT_URL = `${PLATFORM_UI_PATH}/local-time.${version(LOCAL_TIME_SCRIPT)}.js`;

const LOGO = `<svg width="26" height="26" viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="13" r="11" fill="#12b886"/><circle cx="11" cy="11" r="5" fill="#20c997"/><rect x="14.5" y="19" width="3" height="11" rx="1.5" fill="#8d6e63"/></svg>`;

/**
 * A platform page: the shared stylesheet and local-time script (files, so the strict CSP of the
 * pages needs no inline style or script), the Canopy brand, `title` as the heading, and `body`
 * (HTML, escaped by the caller). `heading` overrides the heading when it differs from the title.
 */
export function platformPage(title: string, body: string, heading = title): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_URL}">
<script src="${SCRIPT_URL}" defer></script>
</head>
<body><main>
<div class="brand">${LOGO}<span>Canopy</span></div>
<h1>${escape(heading)}</h1>
${body}
</main></body></html>`;
}

/** A message box: an alert (an error) or a status, or nothing without text. */
export function messageBox(text: string | undefined, kind: 'alert' | 'status' = 'alert'): string {
  return text ? `<p role="${kind}">${escape(text)}</p>` : '';
}

/** Serves the stylesheet and script of the platform's pages (versioned URLs, cached for a year). */
export function platformUiRouter(): Router {
  const immutable = 'public, max-age=31536000, immutable';
  return Router()
    .get(STYLESHEET_URL, (_req, res) => {
      res.set('Cache-Control', immutable).type('css').send(PLATFORM_STYLESHEET);
    })
    .get(SCRIPT_URL, (_req, res) => {
      res.set('Cache-Control', immutable).type('js').send(LOCAL_TIME_SCRIPT);
    });
}
