import { resolveServerUrl } from './server-url';

describe('resolveServerUrl', () => {
  const saved = process.env.CANOPY_SERVER_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.CANOPY_SERVER_URL;
    else process.env.CANOPY_SERVER_URL = saved;
  });

  it('prefers the option, falls back to CANOPY_SERVER_URL and drops trailing slashes', () => {
    process.env.CANOPY_SERVER_URL = 'https://env.example/';
    expect(resolveServerUrl('http://option.example/base//')).toBe('http://option.example/base');
    expect(resolveServerUrl(undefined)).toBe('https://env.example');
  });

  it('refuses a missing or non-http URL as a usage error', () => {
    delete process.env.CANOPY_SERVER_URL;
    expect(() => resolveServerUrl(undefined)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', exitCode: 2 }),
    );
    expect(() => resolveServerUrl('ftp://x.example')).toThrow(/http\(s\) URL/);
    expect(() => resolveServerUrl('not a url')).toThrow(/http\(s\) URL/);
  });
});
