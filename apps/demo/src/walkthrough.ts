/** One step of the demo's scripted walkthrough. */
export interface Step {
  title: string;
  run(): Promise<string | void>;
}

/** Runs the steps in order, printing each with its outcome; stops at the first failure. */
export async function runWalkthrough(steps: readonly Step[], print = console.log): Promise<void> {
  for (const [index, step] of steps.entries()) {
    const started = performance.now();
    print(`\n[${index + 1}/${steps.length}] ${step.title}`);
    try {
      const detail = await step.run();
      const elapsed = Math.round(performance.now() - started);
      if (detail) print(indent(detail));
      print(`    ok (${elapsed} ms)`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`Step ${index + 1} (${step.title}) failed: ${message}`, { cause: error });
    }
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
