// `@canopy/testing` with `createServerSandbox` backed by a real admin-api-server: the jest project
// `agent-suite@admin-api-server` resolves `@canopy/testing` here (and, from this folder, to the
// package itself: internal/agent-suite-on-server/resolver.cjs), so the agent test suite written
// for the in-memory sandbox runs unchanged against the server.
export * from '@canopy/testing';
export { createServerSandbox } from './create-server-sandbox';
