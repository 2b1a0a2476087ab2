#!/usr/bin/env node
import { run } from './program';

// Exit explicitly: generating typings leaves the agent's database connections open.
void run(process.argv).then((code) => process.exit(code));
