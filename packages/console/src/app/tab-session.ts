/**
 * The session across the console's tabs, without `localStorage`: a new tab asks the open tabs
 * for their session over a `BroadcastChannel` (same origin only) and keeps the answer in its own
 * memory and `sessionStorage`; signing out in one tab signs out every tab, and ends the
 * platform's browser login so that the next sign-in asks for the password.
 */
import {
  currentPlatformToken,
  readTabStorage,
  storePlatformToken,
  writeTabStorage,
  type PlatformToken,
} from './platform';

const CHANNEL = 'canopy.console.session';
/** Where session.tsx keeps the agent session of a tab. */
export const SESSION_KEY = 'canopy.console.session';

type Message =
  | { type: 'ask'; id: string }
  | { type: 'share'; to: string; platform?: PlatformToken; session?: unknown }
  | { type: 'sign-out' };

function openChannel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
}

/** A long-lived channel: answers new tabs and hears sign-outs. */
const channel = openChannel();
const signOutListeners = new Set<() => void>();

channel?.addEventListener('message', (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message?.type === 'ask') {
    const platform = currentPlatformToken(60_000);
    // Only a signed-in tab answers; an agent session without a platform login is not shared.
    if (!platform) return;
    channel.postMessage({
      type: 'share',
      to: message.id,
      platform,
      session: readTabStorage(SESSION_KEY),
    } satisfies Message);
  } else if (message?.type === 'sign-out') {
    signOutListeners.forEach((listener) => listener());
  }
});

/**
 * In a tab without a session, asks the open tabs for theirs and keeps the first answer in this
 * tab's storage. Resolves after the answer, or after `timeoutMs` when no tab is signed in.
 */
export function askOpenTabs(timeoutMs = 300): Promise<boolean> {
  if (!channel || currentPlatformToken(60_000)) return Promise.resolve(false);
  const id = crypto.randomUUID();
  const asking = openChannel()!;
  return new Promise<boolean>((resolve) => {
    const done = (answered: boolean) => {
      clearTimeout(timer);
      asking.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    asking.addEventListener('message', (event: MessageEvent<Message>) => {
      const message = event.data;
      if (message?.type !== 'share' || message.to !== id || !message.platform) return;
      storePlatformToken(message.platform);
      if (message.session) writeTabStorage(SESSION_KEY, message.session);
      done(true);
    });
    asking.postMessage({ type: 'ask', id } satisfies Message);
  });
}

/** Calls `listener` when another tab signs out. */
export function onSignOutElsewhere(listener: () => void): () => void {
  signOutListeners.add(listener);
  return () => signOutListeners.delete(listener);
}

/** Tells the other tabs to sign out, and ends the platform's browser login. */
export function signOutEverywhere(): void {
  channel?.postMessage({ type: 'sign-out' } satisfies Message);
  void endPlatformLogin();
}

/**
 * Ends the platform's browser login (OIDC RP-initiated logout, `/oidc/session/end`): the
 * platform serves the console, so the tab reads its confirmation form and confirms it, and the
 * platform clears its session cookie. Best effort: the tokens of every tab are gone already.
 */
export async function endPlatformLogin(): Promise<void> {
  try {
    const page = await fetch(
      new URL(`/oidc/session/end?client_id=canopy-console`, window.location.origin),
      { credentials: 'same-origin' },
    );
    if (!page.ok) return;
    const html = new DOMParser().parseFromString(await page.text(), 'text/html');
    const form = html.querySelector<HTMLFormElement>('form[method="post" i]');
    if (!form) return;
    const body = new URLSearchParams();
    form
      .querySelectorAll<HTMLInputElement>('input[type="hidden"]')
      .forEach((input) => body.append(input.name, input.value));
    body.set('logout', 'yes');
    await fetch(new URL(form.getAttribute('action') ?? '', page.url), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    });
  } catch {
    // The platform's session then ends with its own lifetime (8 h).
  }
}
