/** Where the CLI writes and what it reads; the real process by default, buffers in tests. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGTERM/SIGINT); used by `serve`. */
  stopSignal(): Promise<string>;
  /**
   * Reads a secret without echoing it: a prompt on a terminal, else the first line of stdin.
   * `users set-password` reads the new password through this unless `CANOPY_NEW_PASSWORD` is set.
   */
  readSecret(prompt: string): Promise<string>;
}

/** The process's own IO. */
export const processIo: CliIo = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    }),
  readSecret: readSecretFromStdin,
};

/** Reads one line from stdin; on a terminal the typed characters are not echoed. */
async function readSecretFromStdin(prompt: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write(prompt);
  const rl = createInterface({ input: process.stdin, terminal });
  if (terminal) {
    // Nothing the user types is written back to the terminal.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
  }
  try {
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
    if (terminal) process.stderr.write('\n');
  }
}
