/**
 * An OAuth client an MCP client registered on the platform (RFC 7591 dynamic registration,
 * `POST /oauth/register`; docs/mcp-server.md), as the platform stores and answers it. Agents read
 * the same document back when they relay the OAuth flow.
 */
export interface McpClientRegistration {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  client_name?: string;
  /** The scopes the client registered for (space-separated): the most it is ever granted. */
  scope?: string;
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
}
