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
});
