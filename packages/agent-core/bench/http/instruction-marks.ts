// Marks for instructions.ts, in a benchmark server: on `instructions-zero` and `instructions-dump`
// (IPC) the server calls os.getPriority() and os.hostname(), whose native functions
// (uv_os_getpriority, uv_os_gethostname) instructions.ts names to callgrind as the points where it
// zeroes and dumps its counters. Nothing else in a benchmark server calls them, and outside
// callgrind the two calls cost nothing worth naming.
import { getPriority, hostname } from 'node:os';

/** Native functions of the zero and dump marks, as callgrind's options name them. */
export const ZERO_MARK = 'uv_os_getpriority';
export const DUMP_MARK = 'uv_os_gethostname';

/** In the server: answers the marks over IPC once they are passed. */
export function serveInstructionMarks(): void {
  process.on('message', (message) => {
    if (message === 'instructions-zero') {
      getPriority();
      process.send?.('instructions-zeroed');
    } else if (message === 'instructions-dump') {
      hostname();
      process.send?.('instructions-dumped');
    }
  });
}
