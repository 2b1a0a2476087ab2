import { escapeHtml as escape } from '../http/html-escape';

/** The sign-in form of the MCP authorization: the query's parameters travel as hidden fields. */
export function authorizePage(
  params: Record<string, string>,
  clientName: string,
  error?: string,
): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize ${escape(clientName)}</title></head>
<body>
<h1>Sign in to let ${escape(clientName)} use your Canopy agent</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden}
<label>Email <input type="email" name="email" required autofocus></label>
<label>Password <input type="password" name="password" required></label>
<button type="submit">Authorize</button>
</form>
</body></html>`;
}
