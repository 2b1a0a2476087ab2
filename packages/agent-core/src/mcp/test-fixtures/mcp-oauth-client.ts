import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

const REDIRECT_URL = 'http://127.0.0.1:9/callback';

/** An in-memory OAuth client: what an MCP host stores between the steps of a login. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'jest MCP client',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Follows the browser's redirects from the authorization URL to the client's callback. */
async function followToCallback(url: URL): Promise<URL> {
  let next = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) {
      throw new Error(`${next.href} answered ${response.status}: ${await response.text()}`);
    }
    next = new URL(location, next);
    if (next.href.startsWith(REDIRECT_URL)) return next;
  }
  throw new Error('Too many redirects during the authorization');
}

/**
 * Logs in the way an MCP host does, with the SDK's client transport: discovery, dynamic
 * registration, authorization code with PKCE (the login page redirects at once) and token
 * exchange. The provider then holds the tokens.
 */
export async function obtainTokens(
  mcpUrl: string,
): Promise<{ provider: MemoryOAuthProvider; callback: URL }> {
  const provider = new MemoryOAuthProvider();
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const probe = new Client({ name: 'jest', version: '1.0.0' });
  await expect(probe.connect(transport)).rejects.toThrow(/Unauthorized/);
  if (!provider.authorizationUrl) throw new Error('The client was not sent to log in');
  const callback = await followToCallback(provider.authorizationUrl);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`The callback carries no code: ${callback.href}`);
  await transport.finishAuth(code);
  return { provider, callback };
}

/** {@link obtainTokens}, then a connected SDK client using them. */
export async function connectWithOAuth(
  mcpUrl: string,
): Promise<{ client: Client; provider: MemoryOAuthProvider; callback: URL }> {
  const { provider, callback } = await obtainTokens(mcpUrl);
  const client = new Client({ name: 'jest', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }),
  );
  return { client, provider, callback };
}
