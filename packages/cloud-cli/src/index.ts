// The canopy-cloud program, for embedding and testing.
export { createProgram, run, ExitCode } from './program';
