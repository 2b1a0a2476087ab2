#!/usr/bin/env node
import { runCli } from './cli/run-cli';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
