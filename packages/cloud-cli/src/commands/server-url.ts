import { CliError } from '../cli-error';

/** The platform URL from `--server-url` or `CANOPY_SERVER_URL`, without a trailing slash. */
export function resolveServerUrl(option: string | undefined): string {
  const value = option ?? process.env.CANOPY_SERVER_URL;
  if (!value) {
    throw new CliError(
      'INVALID_INPUT',
      'No Canopy platform URL: pass --server-url or set CANOPY_SERVER_URL (e.g. https://canopy.example.com).',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      'INVALID_INPUT',
      `The platform URL must be an http(s) URL such as https://canopy.example.com, got ${JSON.stringify(value)}.`,
    );
  }
  return value.replace(/\/+$/, '');
}
