/** A small sequential test harness for the browser suite: named steps, results, timings. */
export interface Result {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export class Suite {
  readonly results: Result[] = [];

  constructor(private readonly title: string) {}

  /** Runs a test; later tests still run when one fails (each says what it needs). */
  async test(name: string, run: () => Promise<void>): Promise<boolean> {
    // `SUITE_ONLY=<regex>` runs the matching tests only (while working on some; the sign-in
    // test must match for the others to have a page).
    const only = process.env.SUITE_ONLY;
    if (only && !new RegExp(only).test(name)) return true;
    const started = Date.now();
    try {
      await run();
      this.results.push({ name, ok: true, ms: Date.now() - started });
      console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
      return true;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.results.push({ name, ok: false, ms: Date.now() - started, error: message });
      console.log(`  ✗ ${name}\n    ${message.split('\n').slice(0, 8).join('\n    ')}`);
      return false;
    }
  }

  summary(): { passed: number; failed: number } {
    const passed = this.results.filter((r) => r.ok).length;
    const failed = this.results.length - passed;
    console.log(`${this.title}: ${passed} passed, ${failed} failed`);
    return { passed, failed };
  }
}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
