// Integration tests run against a real PostgreSQL on a machine shared with other suites: allow
// slow moments. (`testTimeout` is a global jest option and is ignored in a project config.)
jest.setTimeout(30_000);
