import ora from 'ora';

/**
 * Where a command reports: progress on stderr (a spinner on a terminal, plain lines otherwise,
 * nothing with `--json`), and its result on stdout (JSON with `--json`).
 */
export interface Output {
  /** Runs `work` under a progress indicator labelled `label`. */
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** A message the user must read (e.g. the login code), always on stderr. */
  notice(text: string): void;
  /** The command's result: `data` as JSON with `--json`, else `text`. */
  result(data: Record<string, unknown>, text: string): void;
}

/** Creates the output of one command run. */
export function createOutput(json: boolean, stderr: NodeJS.WriteStream = process.stderr): Output {
  const interactive = !json && stderr.isTTY === true;
  return {
    async step(label, work) {
      if (!interactive) {
        if (!json) stderr.write(`${label}...\n`);
        return work();
      }
      const spinner = ora({ text: label, stream: stderr }).start();
      try {
        const value = await work();
        spinner.succeed();
        return value;
      } catch (error) {
        spinner.fail();
        throw error;
      }
    },
    notice(text) {
      stderr.write(`${text}\n`);
    },
    result(data, text) {
      process.stdout.write(json ? `${JSON.stringify({ ok: true, ...data })}\n` : `${text}\n`);
    },
  };
}
