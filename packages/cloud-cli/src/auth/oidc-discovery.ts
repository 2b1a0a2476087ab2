import { CliError } from '../cli-error';
import { platformRequest, unexpectedAnswer } from '../platform/http';

/** The endpoints canopy-cloud needs from the platform's OpenID configuration. */
export interface DeviceFlowEndpoints {
  deviceAuthorizationEndpoint: string;
  tokenEndpoint: string;
}

/** Where the OpenID configuration is published, relative to the platform URL. */
export const DISCOVERY_PATH = '/oidc/.well-known/openid-configuration';

/** Reads `device_authorization_endpoint` and `token_endpoint` from the platform's discovery. */
export async function discoverDeviceFlow(serverUrl: string): Promise<DeviceFlowEndpoints> {
  const response = await platformRequest(`${serverUrl}${DISCOVERY_PATH}`);
  if (response.status !== 200) throw unexpectedAnswer('publish its OpenID configuration', response);
  const body = (response.body ?? {}) as Record<string, unknown>;
  const device = body.device_authorization_endpoint;
  const token = body.token_endpoint;
  if (typeof device !== 'string' || typeof token !== 'string') {
    throw new CliError(
      'PLATFORM_ERROR',
      `The Canopy platform at ${serverUrl} does not offer device login (no device_authorization_endpoint in its OpenID configuration); update the platform server.`,
    );
  }
  return { deviceAuthorizationEndpoint: device, tokenEndpoint: token };
}
