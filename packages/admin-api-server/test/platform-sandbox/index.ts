// `@canopy/testing` with `createServerSandbox` backed by a real admin-api-server: the jest project
// `agent-suite@admin-api-server` maps `@canopy/testing` here, so the agent test suite written for
// the in-memory sandbox runs unchanged against the server (internal/agent-suite-on-server).
export * from '../../../testing/src';
export { createServerSandbox } from './create-server-sandbox';
