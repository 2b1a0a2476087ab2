/**
 * The OAuth client id of canopy-cloud: a public client (no secret, `token_endpoint_auth_method`
 * `none`) allowed the device-code and refresh-token grants, registered by the platform.
 */
export const CLI_CLIENT_ID = 'canopy-cloud';

/** The scopes canopy-cloud asks for: an identity and a refresh token. */
export const CLI_SCOPE = 'openid offline_access';
