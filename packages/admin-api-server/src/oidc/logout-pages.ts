import { platformPage as page } from '../http/platform-page';

/**
 * The confirmation step of an RP-initiated logout (`/oidc/session/end`). `form` is the provider's
 * own form (its action and anti-forgery field): the buttons submit it, "Sign out" with
 * `logout=yes`. The console confirms it for the user when they sign out there.
 */
export function logoutConfirmPage(form: string): string {
  return page(
    'Sign out of Canopy',
    `${form}
<p>You are signed in to this Canopy platform in this browser. Sign out here too?</p>
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
</div>`,
  );
}

/** Shown after a logout that names no page to return to. */
export function logoutDonePage(): string {
  return page(
    'Signed out of Canopy',
    '<p>Your platform session in this browser has ended. You can close this page.</p>',
  );
}
