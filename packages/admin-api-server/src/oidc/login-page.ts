import { escapeHtml as escape } from '../http/html-escape';
import { platformPage } from '../http/platform-page';

/** The email and password fields of the platform's sign-in forms; `email` keeps what was typed. */
export function credentialFields(email = ''): string {
  const autofocus = (yes: boolean) => (yes ? ' autofocus' : '');
  return `<label>Email <input type="email" name="email" value="${escape(email)}" autocomplete="username" required${autofocus(!email)}></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required${autofocus(Boolean(email))}></label>`;
}

/**
 * The login form of an OIDC interaction: email and password, posted back to the server. After a
 * failed attempt, `alert` (HTML) says why and `email` keeps what was typed.
 */
export function loginPage(uid: string, failed: { alert?: string; email?: string } = {}): string {
  return platformPage(
    'Sign in to Canopy',
    `${failed.alert ?? ''}
<form method="post" action="/oidc/interaction/${escape(uid)}/login">
${credentialFields(failed.email)}
<button type="submit">Sign in</button>
</form>`,
  );
}
