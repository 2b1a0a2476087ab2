import { describe, expect, it } from 'vitest';
import { trustedAuthorizationUrl, UntrustedSignInError } from './agent-sign-in';

const PLATFORM = 'https://admin.example.com';
const AGENT = 'https://agent.example.com/forest';
const trusted = (url: string) => trustedAuthorizationUrl(url, AGENT, PLATFORM);

describe('the authorizationUrl an agent answers', () => {
  it("is followed when it is the platform's sign-in page for the agent's own client", () => {
    const url = `${PLATFORM}/oidc/auth?client_id=agent-12&scope=openid&response_type=code&state=%7B%7D`;
    expect(trusted(url)).toBe(url);
  });

  it('is refused on another origin, naming it and this platform', () => {
    expect(() => trusted('https://agent.example.com/fake-login?client_id=agent-12')).toThrow(
      new UntrustedSignInError(
        "This agent (https://agent.example.com) asked to sign you in at https://agent.example.com, which is not this platform (https://admin.example.com). The console did not open it: check the environment's API endpoint.",
      ),
    );
    for (const url of [
      'http://admin.example.com/oidc/auth?client_id=agent-12',
      'https://admin.example.com:444/oidc/auth?client_id=agent-12',
      'https://admin.example.com.evil.test/oidc/auth?client_id=agent-12',
      'javascript:alert(1)',
      'data:text/html,<form>',
    ]) {
      expect(() => trusted(url), url).toThrow(/which is not this platform/);
    }
    expect(() => trusted('/oidc/auth?client_id=agent-12')).toThrow(/not a URL/);
  });

  it("is refused for the console's own client, or without one client id", () => {
    expect(() =>
      trusted(`${PLATFORM}/oidc/auth?client_id=canopy-console&code_challenge=x`),
    ).toThrow(/as the console itself/);
    expect(() => trusted(`${PLATFORM}/oidc/auth?scope=openid`)).toThrow(/no single client/);
    expect(() =>
      trusted(`${PLATFORM}/oidc/auth?client_id=agent-12&client_id=canopy-console`),
    ).toThrow(/no single client/);
  });

  it('is refused on another path of the platform than its sign-in page', () => {
    expect(() => trusted(`${PLATFORM}/oidc/session/end?client_id=agent-12`)).toThrow(
      /not its sign-in page/,
    );
  });
});
