import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialsPath, loadToken, saveToken } from './token-store';

describe('token store', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'canopy-tokens-'));
    env = { CANOPY_CONFIG_DIR: join(dir, 'config') };
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps one token per platform in a file only its owner can read', async () => {
    await saveToken(
      'https://a.example',
      { accessToken: 'a', refreshToken: 'ra', expiresAt: 5 },
      env,
    );
    await saveToken('https://b.example', { accessToken: 'b' }, env);
    expect(await loadToken('https://a.example', env)).toEqual({
      accessToken: 'a',
      refreshToken: 'ra',
      expiresAt: 5,
    });
    expect(await loadToken('https://b.example', env)).toEqual({ accessToken: 'b' });
    expect((await stat(credentialsPath(env))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'config'))).mode & 0o777).toBe(0o700);
  });

  it('forgets a token', async () => {
    await saveToken('https://a.example', { accessToken: 'a' }, env);
    await saveToken('https://a.example', null, env);
    expect(await loadToken('https://a.example', env)).toBeNull();
    expect(JSON.parse(await readFile(credentialsPath(env), 'utf8'))).toEqual({ servers: {} });
  });

  it('treats a missing or damaged file as no login, and replaces a damaged one', async () => {
    expect(await loadToken('https://a.example', env)).toBeNull();
    await mkdir(join(dir, 'config'));
    await writeFile(credentialsPath(env), '{not json');
    expect(await loadToken('https://a.example', env)).toBeNull();
    await saveToken('https://a.example', { accessToken: 'a' }, env);
    expect(await loadToken('https://a.example', env)).toEqual({ accessToken: 'a' });
  });

  it('explains an unwritable configuration directory without a stack trace', async () => {
    const blocked = { CANOPY_CONFIG_DIR: join(dir, 'file', 'config') };
    await writeFile(join(dir, 'file'), '');
    await expect(
      saveToken('https://a.example', { accessToken: 'a' }, blocked),
    ).rejects.toMatchObject({
      name: 'CliError',
      code: 'DISK_ERROR',
      message: expect.stringContaining('CANOPY_CONFIG_DIR'),
    });
  });
});
