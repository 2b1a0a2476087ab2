// Integration tests run against a real PostgreSQL on a shared machine: allow slow moments.
module.exports = require('../../jest.preset.cjs')(__dirname, { testTimeout: 30_000 });
