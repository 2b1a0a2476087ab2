/**
 * Wraps a read of new events so that reads never overlap: a call during a read makes one more read
 * follow it (a notification during a read must not be missed), and any number of such calls make
 * only one. `closed` stops the follow-up once the reader is closed.
 */
export function coalescedRead(
  read: () => Promise<void>,
  closed: () => boolean,
): () => Promise<void> {
  let reading = false;
  let again = false;
  const run = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      await read();
    } finally {
      reading = false;
    }
    if (again && !closed()) {
      again = false;
      await run();
    }
  };
  return run;
}
