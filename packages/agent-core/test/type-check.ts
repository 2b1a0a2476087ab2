import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * Writes `files` (name → code) into `directory` and type-checks them in one strict tsc program;
 * returns each file's errors. `options` adds compiler options (paths, types, …).
 */
export function typeCheck(
  directory: string,
  files: Record<string, string>,
  options: ts.CompilerOptions = {},
): Record<string, string[]> {
  const paths = Object.entries(files).map(([name, code]) => {
    writeFileSync(join(directory, name), code);
    return join(directory, name);
  });
  const program = ts.createProgram(paths, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    ...options,
  });
  return Object.fromEntries(
    Object.keys(files).map((name, index) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(paths[index] as string))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

/** Options to compile code that imports node's modules (`@types/node` of the workspace). */
export const NODE_TYPES: ts.CompilerOptions = {
  esModuleInterop: true,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [join(__dirname, '../../../node_modules/@types')],
};
