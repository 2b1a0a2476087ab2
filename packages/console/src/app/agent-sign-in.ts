/**
 * What the console lets an agent's login start. An agent answers `POST /authentication` with the
 * platform URL that signs the user in (`authorizationUrl`); the console opens it in its sign-in
 * pop-up, where the browser is signed in to the platform. An agent that is not what it claims
 * (a rogue server at an environment's API endpoint) could otherwise send that pop-up anywhere:
 * to a look-alike password form on its own origin, or to the platform's login of the console's
 * own client, with a PKCE verifier it keeps, to obtain the console's token. So the console only
 * follows the platform's own authorization endpoint, for a client that is not the console's.
 */
import { CONSOLE_CLIENT_ID } from './platform';

/** The platform's OIDC authorization endpoint, on the platform's (the console's) origin. */
export const AUTHORIZATION_PATH = '/oidc/auth';

/** An agent's `authorizationUrl` the console refused to follow, saying why. */
export class UntrustedSignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedSignInError';
  }
}

/**
 * The agent's `authorizationUrl`, once it is the platform's authorization endpoint for another
 * client than the console's.
 *
 * @throws UntrustedSignInError naming the origin the agent asked for, and this platform's.
 */
export function trustedAuthorizationUrl(
  authorizationUrl: string,
  agentUrl: string,
  platformOrigin: string,
): string {
  const agent = originLabel(agentUrl);
  let url: URL;
  try {
    url = new URL(authorizationUrl);
  } catch {
    throw new UntrustedSignInError(
      `The agent at ${agent} answered a sign-in address that is not a URL; the console did not follow it.`,
    );
  }
  if (url.origin !== platformOrigin) {
    throw new UntrustedSignInError(
      `This agent (${agent}) asked to sign you in at ${url.origin === 'null' ? url.protocol : url.origin}, which is not this platform (${platformOrigin}). The console did not open it: check the environment's API endpoint.`,
    );
  }
  if (url.pathname !== AUTHORIZATION_PATH) {
    throw new UntrustedSignInError(
      `This agent (${agent}) asked to sign you in at ${url.pathname} on this platform, which is not its sign-in page (${AUTHORIZATION_PATH}). The console did not open it.`,
    );
  }
  const clientId = url.searchParams.getAll('client_id');
  if (clientId.length !== 1 || clientId[0] === '' || clientId[0] === CONSOLE_CLIENT_ID) {
    throw new UntrustedSignInError(
      `This agent (${agent}) asked to sign you in as ${clientId[0] === CONSOLE_CLIENT_ID ? 'the console itself' : 'no single client'}, not as the agent's own client. The console did not open it.`,
    );
  }
  return url.toString();
}

/** The origin of an agent URL for a message (the URL itself when it has none). */
export function originLabel(agentUrl: string): string {
  try {
    return new URL(agentUrl).origin;
  } catch {
    return agentUrl;
  }
}
