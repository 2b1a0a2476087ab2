import { escapeHtml as escape } from '../http/html-escape';
import { messageBox as alert, platformPage as page } from '../http/platform-page';

/** What a device page form needs: where it posts, and the anti-forgery value of the session. */
export interface DeviceFormContext {
  action: string;
  xsrf: string;
}

/**
 * The verification page of a canopy-cloud login (`/oidc/device`): the user types the code the
 * CLI shows. After a failed attempt, `error` says why and `userCode` keeps what was typed.
 */
export function deviceCodeInputPage(
  form: DeviceFormContext & { userCode?: string; error?: string },
): string {
  return page(
    'Log in to canopy-cloud',
    `${alert(form.error)}
<form method="post" action="${escape(form.action)}">
<input type="hidden" name="xsrf" value="${escape(form.xsrf)}">
<label>Code shown by canopy-cloud <input type="text" name="user_code" value="${escape(form.userCode ?? '')}" autocomplete="off" required autofocus></label>
<button type="submit">Continue</button>
</form>`,
  );
}

/**
 * The confirmation step: the user checks the code against the one in the terminal, then
 * approves (and signs in next) or denies the login.
 */
export function deviceConfirmPage(form: DeviceFormContext & { userCode: string }): string {
  return page(
    'Log in to canopy-cloud',
    `<p>canopy-cloud asks to act on your behalf on this Canopy platform. Approve only if your terminal shows the code <strong>${escape(form.userCode)}</strong>.</p>
<form method="post" action="${escape(form.action)}">
<input type="hidden" name="xsrf" value="${escape(form.xsrf)}">
<input type="hidden" name="user_code" value="${escape(form.userCode)}">
<div class="actions">
<button type="submit" name="confirm" value="yes">Approve and sign in</button>
<button type="submit" name="abort" value="yes" class="secondary">Deny</button>
</div>
</form>`,
  );
}

/** Shown once the login is approved; canopy-cloud receives its token on its next poll. */
export function deviceSuccessPage(): string {
  return page(
    'canopy-cloud is logged in',
    '<p>You can close this page and go back to your terminal.</p>',
  );
}
