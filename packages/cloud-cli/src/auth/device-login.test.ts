import { startStandInPlatform, type StandInPlatform } from '../../test/stand-in-platform';
import { deviceLogin, refreshToken, type DeviceCodePrompt } from './device-login';

describe('device login (RFC 8628)', () => {
  let platform: StandInPlatform;
  beforeAll(async () => {
    platform = await startStandInPlatform();
    platform.settings.pollInterval = 0;
  });
  afterAll(() => platform.close());

  function login(decide: (prompt: DeviceCodePrompt) => Promise<void>) {
    const steps: string[] = [];
    const run = deviceLogin(platform.url, {
      step: (label, work) => {
        steps.push(label);
        return work();
      },
      prompt: (prompt) => void decide(prompt),
    });
    return { run, steps };
  }

  it('polls while the code is pending and returns the tokens once approved', async () => {
    const before = platform.requests.filter((request) => request === 'POST /oidc/token').length;
    const { run, steps } = login(async (prompt) => {
      expect(prompt.verificationUriComplete).toBe(
        `${platform.url}/oidc/device?user_code=${prompt.userCode}`,
      );
      // Approved once a poll was answered "pending" (a fixed wait could end before the first).
      const polled = platform.polls.length;
      while (platform.polls.length === polled)
        await new Promise((resolve) => setTimeout(resolve, 5));
      await platform.decide(prompt.userCode, true);
    });
    const token = await run;
    expect(token.accessToken).toMatch(/^at-/);
    expect(token.refreshToken).toMatch(/^rt-/);
    expect(token.expiresAt).toBeGreaterThan(Date.now());
    expect(steps).toEqual(['Starting the login', 'Waiting for you to confirm the code']);
    const polls = platform.requests.filter((request) => request === 'POST /oidc/token').length;
    expect(polls - before).toBeGreaterThan(1);
  });

  it('waits 5 s more between polls after a slow_down', async () => {
    platform.settings.slowDownOnce = true;
    const { run } = login(async (prompt) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await platform.decide(prompt.userCode, true);
    });
    const first = platform.polls.length;
    await run;
    const [slowedDown, next] = platform.polls.slice(first);
    expect(next! - slowedDown!).toBeGreaterThanOrEqual(5000);
  }, 15_000);

  it('fails with LOGIN_FAILED when the user denies', async () => {
    const { run } = login((prompt) => platform.decide(prompt.userCode, false));
    await expect(run).rejects.toMatchObject({ code: 'LOGIN_FAILED', exitCode: 3 });
  });

  it('renews with a refresh token once, then reports it as no longer valid', async () => {
    const { run } = login((prompt) => platform.decide(prompt.userCode, true));
    const token = await run;
    const refresh = token.refreshToken as string;
    const renewed = await refreshToken(platform.url, { ...token, refreshToken: refresh });
    expect(renewed?.accessToken).not.toBe(token.accessToken);
    expect(await refreshToken(platform.url, { ...token, refreshToken: refresh })).toBeNull();
  });

  it('reports an unreachable platform with its address', async () => {
    const run = deviceLogin('http://127.0.0.1:9', {
      step: (_label, work) => work(),
      prompt: () => {},
    });
    await expect(run).rejects.toMatchObject({
      code: 'PLATFORM_UNREACHABLE',
      message: expect.stringContaining('http://127.0.0.1:9'),
    });
  });
});
