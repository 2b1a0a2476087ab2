// Unit tests of check-doc-references.mjs on small fixture repositories:
// `node --test scripts/check-doc-references.test.mjs` (part of `pnpm lint`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkFile, checkRepository, readSections } from './check-doc-references.mjs';

const roots = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A repository with these files (path → content). */
function repository(files) {
  const root = mkdtempSync(join(tmpdir(), 'doc-refs-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const DOCS = {
  'docs/agent-http-protocol.md':
    '# Agent\n\n## 9. Actions\n\n### 9.6 Execute results\n\n### 9.7 Approvals\n',
  'docs/platform-protocol.md': '# Platform\n\n## 13. The schema file\n\n### 13.5 Actions\n',
  'docs/spec/agent-library.md': '# Spec\n\n### 4.3 Collection customizer methods\n',
  'docs/spec/admin-api.md': '# Spec\n\n## 5. Authentication\n',
};

function problemsOf(files) {
  return checkRepository(repository({ ...DOCS, ...files })).problems;
}

describe('check-doc-references', () => {
  it('reads the numbered headings of every document', () => {
    const sections = readSections(join(repository(DOCS), 'docs'));
    assert.deepEqual([...sections.get('agent-http-protocol.md')], ['9', '9.6', '9.7']);
    assert.deepEqual([...sections.get('spec/agent-library.md')], ['4.3']);
  });

  it('passes a citation of a section that exists', () => {
    const problems = problemsOf({
      'packages/a/src/x.ts': '/** The wire form of agent-http-protocol §9.6. */\n',
      'packages/a/README.md':
        'As the spec says (spec §4.3), and [the docs](../../docs/platform-protocol.md).\n',
    });
    assert.deepEqual(problems, []);
  });

  it('fails a citation of a section that does not exist, with file and line', () => {
    const problems = problemsOf({
      'packages/a/src/x.ts': '\n// The result (agent-http-protocol §9.8).\n',
    });
    assert.deepEqual(problems, [
      'packages/a/src/x.ts:2: docs/agent-http-protocol.md has no section 9.8',
    ]);
  });

  it('fails a citation of a document that does not exist', () => {
    const problems = problemsOf({ 'apps/demo/x.ts': '// data-semantics §2.4\n' });
    assert.deepEqual(problems, [
      'apps/demo/x.ts:1: §2.4 cites docs/data-semantics.md, which does not exist',
    ]);
  });

  it('fails a link or a docs path to a file that does not exist', () => {
    const problems = problemsOf({
      'packages/a/README.md':
        'See [the guide](docs/guide.md) and [ok](../../docs/platform-protocol.md).\n',
      'eslint.config.mjs': '// The layers (shared/docs/architecture.md).\n',
    });
    assert.deepEqual(problems, [
      'packages/a/README.md:1: docs/guide.md does not exist',
      'eslint.config.mjs:1: shared/docs/architecture.md does not exist',
    ]);
  });

  it('fails a § that names no section', () => {
    assert.deepEqual(problemsOf({ 'packages/a/x.ts': '// search or index (§ activity logs)\n' }), [
      'packages/a/x.ts:1: a § without a section number',
    ]);
  });

  it('checks both ends of a range and every item of a list', () => {
    const problems = problemsOf({
      'packages/a/x.ts': '// platform protocol §13–14, agent protocol §9.6, §9.9\n',
    });
    assert.deepEqual(problems, [
      'packages/a/x.ts:1: docs/platform-protocol.md has no section 14',
      'packages/a/x.ts:1: docs/agent-http-protocol.md has no section 9.9',
    ]);
  });

  it('reads an unnamed citation as the document named before it, else the folder default', () => {
    const sections = readSections(join(repository(DOCS), 'docs'));
    const named = checkFile(
      '/',
      'packages/x/a.ts',
      '// platform protocol §13\n// then §13.5\n',
      sections,
    );
    assert.deepEqual(named, { problems: [], citations: 2 });
    const folder = checkFile(
      '/',
      'packages/agent-core/src/http/a.ts',
      '// §9.7 and §13.5\n',
      sections,
    );
    assert.deepEqual(folder.problems, [
      'packages/agent-core/src/http/a.ts:1: docs/agent-http-protocol.md has no section 13.5',
    ]);
    const nowhere = checkFile('/', 'packages/x/a.ts', '// see §9.7\n', sections);
    assert.match(nowhere.problems[0], /§9\.7 names no document/);
  });

  it('reads "spec" as the admin API spec in the platform server, the agent library elsewhere', () => {
    assert.deepEqual(
      problemsOf({
        'packages/admin-api-server/src/a.ts': '// spec §5\n',
        'packages/agent-core/src/a.ts': '// spec §4.3\n',
      }),
      [],
    );
    assert.deepEqual(problemsOf({ 'packages/agent-core/src/a.ts': '// spec §5\n' }), [
      'packages/agent-core/src/a.ts:1: docs/spec/agent-library.md has no section 5',
    ]);
  });

  it('skips RFC citations, node_modules and dist', () => {
    const problems = problemsOf({
      'packages/a/x.ts': '// RFC 8628 §3.5 and RFC 6749 §5.2\n',
      'packages/a/node_modules/b/x.ts': '// agent-http-protocol §99\n',
      'packages/a/dist/x.js': '// agent-http-protocol §99\n',
    });
    assert.deepEqual(problems, []);
  });
});
