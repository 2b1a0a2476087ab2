#!/usr/bin/env node
import { ExitCode, run } from './program';

run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `canopy-cloud: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = ExitCode.Failure;
  },
);
