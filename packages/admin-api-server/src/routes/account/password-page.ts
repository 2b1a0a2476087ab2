import { escapeHtml } from '../../http/html-escape';
import { messageBox, platformPage } from '../../http/platform-page';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../store/model/passwords';

/** Where invitation and reset links point: the page that sets one's own password. */
export const PASSWORD_PAGE_PATH = '/account/password';

/** The link a one-time account token is handed over as. */
export function accountLink(origin: string, token: string): string {
  return `${origin}${PASSWORD_PAGE_PATH}?token=${encodeURIComponent(token)}`;
}

/** The form of an invitation or reset link: the token travels as a hidden field. */
export function passwordPage(token: string, message?: { error: boolean; text: string }): string {
  return platformPage(
    'Set your Canopy password',
    `${message ? messageBox(message.text, message.error ? 'alert' : 'status') : ''}
${
  message && !message.error
    ? ''
    : `<form method="post" action="${PASSWORD_PAGE_PATH}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label>New password (at least ${MIN_PASSWORD_LENGTH} characters) <input type="password" name="password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" required autofocus autocomplete="new-password"></label>
<button type="submit">Set password</button>
</form>`
}`,
  );
}
