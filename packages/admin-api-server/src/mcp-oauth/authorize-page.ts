import type { McpClient } from '../store/mcp-oauth';
import { escapeHtml as escape } from '../http/html-escape';
import { platformPage } from '../http/platform-page';
import { credentialFields } from '../oidc/login-page';

/** What each MCP scope lets the client do, as the consent page says it. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'mcp:read': 'read records (mcp:read)',
  'mcp:write': 'create, update and delete records (mcp:write)',
  'mcp:action': 'run actions (mcp:action)',
  'mcp:admin': 'use every tool of the agent (mcp:admin; granted only if you are an admin)',
};

/** What the consent page shows. */
export interface AuthorizePageInput {
  /** The authorization request's parameters, carried on as hidden fields. */
  params: Record<string, string>;
  client: McpClient;
  redirectUri: string;
  /** The scopes the client may get (what it asked for and registered for). */
  scopes: readonly string[];
  environment: { name: string; projectName: string };
  /** Why the last attempt failed (HTML). */
  alert?: string;
  /** The email typed in the last attempt, kept. */
  email?: string;
}

/**
 * The sign-in and consent form of the MCP authorization. It says who asks (the client's own name,
 * marked as unverified, and that the client registered itself), where the browser goes next (the
 * host of the redirect URI), on which project and environment, and with which scopes.
 */
export function authorizePage(input: AuthorizePageInput): string {
  const { params, client, environment } = input;
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n');
  const name = client.client_name ?? 'An unnamed MCP client';
  const host = new URL(input.redirectUri).host;
  const registered = new Date(client.client_id_issued_at * 1000).toISOString().slice(0, 10);
  const scopes = input.scopes
    .map((scope) => `<li>${escape(SCOPE_DESCRIPTIONS[scope] ?? scope)}</li>`)
    .join('\n');
  return platformPage(
    'Authorize an MCP client',
    `${input.alert ?? ''}
<dl>
<dt>Client</dt><dd>“${escape(name)}” <em>(the name it chose; unverified)</em></dd>
<dt>Registered by</dt><dd>itself, through dynamic client registration on ${registered} (unverified)</dd>
<dt>Sends you back to</dt><dd><strong>${escape(host)}</strong></dd>
<dt>Agent</dt><dd>project ${escape(environment.projectName)}, environment ${escape(environment.name)}</dd>
</dl>
<p>If you authorize it, it may act as you to:</p>
<ul>
${scopes}
</ul>
<form method="post" action="/oauth/authorize">
${hidden}
${credentialFields(input.email)}
<button type="submit">Authorize</button>
</form>`,
    'Authorize an MCP client to use your Canopy agent',
  );
}

/**
 * The Content-Security-Policy of the consent page: the page's own resources only, and its form may
 * lead to this server and to the client's redirect URI (browsers apply `form-action` to the
 * redirect that follows the submission: with `'self'` alone, a client on another origin never
 * gets its code).
 */
export function authorizePageCsp(redirectUri: string): string {
  return [
    "default-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self' ${new URL(redirectUri).origin}`,
  ].join('; ');
}
