import { escapeHtml as escape } from '../http/html-escape';

/** The login form of an OIDC interaction: email and password, posted back to the server. */
export function loginPage(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to Canopy</title></head>
<body>
<h1>Sign in to Canopy</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/oidc/interaction/${escape(uid)}/login">
<label>Email <input type="email" name="email" required autofocus></label>
<label>Password <input type="password" name="password" required></label>
<button type="submit">Sign in</button>
</form>
</body></html>`;
}
