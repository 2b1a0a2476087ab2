import { run, ExitCode } from './program';
import { version } from '../package.json';

function captureOutput() {
  const out: string[] = [];
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    }),
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    }),
  ];
  return {
    text: () => out.join(''),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

describe('canopy-cloud program', () => {
  it('prints the package version', async () => {
    const output = captureOutput();
    try {
      expect(await run(['node', 'canopy-cloud', '--version'])).toBe(ExitCode.Ok);
    } finally {
      output.restore();
    }
    expect(output.text().trim()).toBe(version);
  });

  it('rejects an unknown command with the usage exit code and a hint', async () => {
    const output = captureOutput();
    try {
      expect(await run(['node', 'canopy-cloud', 'deploy-everything'])).toBe(ExitCode.Usage);
    } finally {
      output.restore();
    }
    expect(output.text()).toMatch(/^error: /);
    expect(output.text()).toContain('canopy-cloud --help');
  });

  it('reports a failure with --json as one JSON object and the usage exit code', async () => {
    const output = captureOutput();
    let code: number;
    try {
      code = await run([
        'node',
        'canopy-cloud',
        'bootstrap',
        '--json',
        '--server-url',
        'http://127.0.0.1:9',
        '--env-secret',
        'not-a-secret',
      ]);
    } finally {
      output.restore();
    }
    expect(code).toBe(ExitCode.Usage);
    expect(JSON.parse(output.text())).toEqual({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringContaining('64 lowercase hexadecimal'),
      },
    });
  });
});
