#!/usr/bin/env node
// Fails when code or a README points at a document, or a section of one, that the repository does
// not have. Two kinds of references are checked:
//
// - section citations, `§9.6`, `§8.8–8.11`, `§10, §15`, with the document they belong to: the one
//   named just before (`agent-http-protocol §9.6`, `platform protocol §13.5`, `spec §4.3`, the name
//   possibly starting on the line before), else one named earlier on the same line, else the
//   default of the file's folder (DEFAULTS; a file of docs/ cites itself), else the last document
//   the file named. Citations of RFCs are external and skipped;
// - paths to documents: relative markdown links (`[x](../console/README.md)`) and `docs/….md`
//   paths written in text.
//
// Sections are the numbered headings of docs/*.md (`## 9. Actions`, `### 9.6 Execute results`).
// Run from the repository root: `node scripts/check-doc-references.mjs` (part of `pnpm lint`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders and files scanned, relative to the root. */
export const SCANNED = [
  'packages',
  'apps',
  'internal',
  'scripts',
  'docs',
  'eslint.config.mjs',
  'README.md',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.turbo', 'test-results']);
const SCANNED_EXTENSIONS = /\.(?:[cm]?[jt]sx?|md)$/;

/**
 * How the code names documents, each with the file under docs/ it means. `spec` depends on the
 * package: the admin API server's spec is the public API one, every other package's the agent
 * library's.
 */
const NAMES = [
  { pattern: /agent[- ](?:http[- ])?protocol(?:\.md)?$/i, doc: () => 'agent-http-protocol.md' },
  { pattern: /platform[- ]protocol(?:\.md)?$/i, doc: () => 'platform-protocol.md' },
  { pattern: /data[- ]semantics(?:\.md)?$/i, doc: () => 'data-semantics.md' },
  { pattern: /admin[- ]api(?:\.md)?$/i, doc: () => 'spec/admin-api.md' },
  { pattern: /agent[- ]library(?:\.md)?$/i, doc: () => 'spec/agent-library.md' },
  { pattern: /public[- ]api(?:\.md)?$/i, doc: () => 'public-api.md' },
  { pattern: /mcp[- ]server(?:\.md)?$/i, doc: () => 'mcp-server.md' },
  { pattern: /architecture(?:\.md)?$/i, doc: () => 'architecture.md' },
  {
    pattern: /\bspec(?:'s)?$/i,
    doc: (file) =>
      file.startsWith('packages/admin-api-server/') ? 'spec/admin-api.md' : 'spec/agent-library.md',
  },
  { pattern: /\bRFC \d+$/i, doc: () => null },
];

/** The document of a citation that names none, and whose file named none before it. */
const DEFAULTS = [
  ['packages/agent-core/src/http/', 'agent-http-protocol.md'],
  ['packages/agent-core/src/operations/', 'agent-http-protocol.md'],
  ['packages/agent-core/src/protocol/', 'agent-http-protocol.md'],
  ['packages/agent-core/src/audit-trail/', 'agent-http-protocol.md'],
  ['packages/console/', 'agent-http-protocol.md'],
  ['packages/agent-core/src/schema/', 'platform-protocol.md'],
  ['packages/agent-core/src/agent/', 'platform-protocol.md'],
  ['packages/agent-core/src/platform/', 'platform-protocol.md'],
  ['packages/agent-core/src/mcp/', 'platform-protocol.md'],
  ['packages/agent-core/src/ai/', 'platform-protocol.md'],
  ['packages/testing/', 'platform-protocol.md'],
  ['packages/cloud-cli/', 'platform-protocol.md'],
  ['packages/admin-api-server/', 'platform-protocol.md'],
  ['packages/datasource-sql/', 'data-semantics.md'],
  ['packages/plugin-flattener/', 'data-semantics.md'],
  ['packages/agent-core/src/toolkit/', 'data-semantics.md'],
  ['packages/agent-core/src/customizer/', 'data-semantics.md'],
];

// A document name, then at most a few characters of punctuation (`agent-http-protocol §9`,
// "`data-semantics.md` §2.3", "platform protocol (§5)"), right before a citation.
const NAME_BEFORE = /([A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,2}|RFC \d+)[`'" ]*\(?\s*$/;
// `§9.6`, `§ 9.6`, `§8.8–8.11`, `§8.8 – §8.11`, `§9–10`.
const CITATION = /§\s?(\d+(?:\.\d+)*[a-z]?)(?:\s?[–-]\s?§?\s?(\d+(?:\.\d+)*[a-z]?))?/g;
// Any document name anywhere on a line, to remember the file's current document.
// (`@canopy/platform-protocol` is a package, not the document.)
const ANY_NAME =
  /(?<![/@\w-])(?:agent[- ](?:http[- ])?protocol|platform[- ]protocol|data[- ]semantics|admin[- ]api\.md|agent[- ]library|public[- ]api\.md|mcp[- ]server\.md|architecture\.md|\bspec(?:'s)?(?= §)|RFC \d+)/gi;
const MARKDOWN_LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;
const DOCS_PATH = /(?<![\w./-])((?:\.\.?\/|[\w.-]+\/)*docs\/[\w./-]+\.md)\b/g;

/** The numbered sections of every markdown file under `docsDir`, keyed by path from there. */
export function readSections(docsDir) {
  const sections = new Map();
  if (!existsSync(docsDir)) return sections;
  for (const file of walk(docsDir)) {
    if (!file.endsWith('.md')) continue;
    const numbers = new Set();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const heading = /^#{1,6}\s+§?\s*(\d+(?:\.\d+)*[a-z]?)\.?\s/.exec(line);
      if (heading) numbers.add(heading[1]);
    }
    sections.set(relative(docsDir, file).split(sep).join('/'), numbers);
  }
  return sections;
}

function* walk(path) {
  if (statSync(path).isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    yield* walk(join(path, entry.name));
  }
}

function nameToDoc(name, file) {
  const known = NAMES.find(({ pattern }) => pattern.test(name));
  return known ? known.doc(file) : undefined;
}

function defaultDoc(file) {
  if (file.startsWith('docs/')) return file.slice('docs/'.length); // a document cites itself
  return DEFAULTS.find(([prefix]) => file.startsWith(prefix))?.[1];
}

/**
 * The problems of one file's references. `file` is relative to `root`, with `/` separators;
 * `sections` comes from {@link readSections}.
 * @returns {{problems: string[], citations: number}}
 */
export function checkFile(root, file, text, sections) {
  const problems = [];
  let citations = 0;
  let current; // the document the file last named
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    // A name may start on the line before (`platform\n * protocol §13`).
    const previous = (lines[index - 1] ?? '').trimEnd().slice(-40);
    const text = line.replace(/^\s*(?:\*|\/\/|#+|-)?\s*/, '');
    const offset = line.length - text.length;
    if (/§\s+[a-z]/.test(line)) problems.push(`${where}: a § without a section number`);
    for (const match of line.matchAll(CITATION)) {
      const before = `${previous} ${line.slice(offset, match.index)}`;
      const named = NAME_BEFORE.exec(before);
      let doc = named ? nameToDoc(named[1].trim(), file) : undefined;
      // Else the document named last before it on this line (`platform protocol §10, §16.4`),
      // else on the lines before, else the folder's default.
      if (doc === undefined) {
        const earlier = [...line.slice(0, match.index).matchAll(ANY_NAME)].pop();
        if (earlier) doc = nameToDoc(earlier[0], file);
      }
      if (doc === undefined) doc = defaultDoc(file) ?? current;
      if (doc === null) continue; // an RFC
      citations += 1;
      if (doc === undefined) {
        problems.push(
          `${where}: §${match[1]} names no document (write which one, e.g. "data-semantics §${match[1]}")`,
        );
        continue;
      }
      current = doc;
      const numbers = sections.get(doc);
      if (!numbers) {
        problems.push(`${where}: §${match[1]} cites docs/${doc}, which does not exist`);
        continue;
      }
      for (const number of [match[1], match[2]].filter(Boolean)) {
        if (!numbers.has(number)) problems.push(`${where}: docs/${doc} has no section ${number}`);
      }
    }
    const names = [...line.matchAll(ANY_NAME)];
    if (names.length > 0) {
      const last = nameToDoc(names.at(-1)[0], file);
      if (last) current = last; // an RFC is cited on its own line only
    }
    for (const target of linkTargets(line, file)) {
      const path = target.startsWith('/')
        ? join(root, target)
        : resolve(root, dirname(file), target);
      const fromRoot = resolve(root, target);
      if (!existsSync(path) && !(isDocsPath(target) && existsSync(fromRoot))) {
        problems.push(`${where}: ${target} does not exist`);
      }
    }
  });
  return { problems, citations };
}

function isDocsPath(target) {
  return /^docs\//.test(target);
}

/** Relative paths the line points at: markdown links and `…docs/….md` paths. */
function linkTargets(line, file) {
  const targets = new Set();
  if (file.endsWith('.md')) {
    for (const [, href] of line.matchAll(MARKDOWN_LINK)) {
      if (/^(?:[a-z][\w+.-]*:|#|<)/i.test(href)) continue; // a URL, an anchor
      targets.add(decodeURI(href.split('#')[0]));
    }
  }
  for (const [, path] of line.matchAll(DOCS_PATH)) targets.add(path);
  return [...targets].filter(Boolean);
}

/** Every problem in the repository at `root`. */
export function checkRepository(root) {
  const sections = readSections(join(root, 'docs'));
  const problems = [];
  let citations = 0;
  let files = 0;
  for (const entry of SCANNED) {
    const path = join(root, entry);
    if (!existsSync(path)) continue;
    for (const absolute of walk(path)) {
      if (!SCANNED_EXTENSIONS.test(absolute) || absolute.endsWith('.d.ts')) continue;
      const file = relative(root, absolute).split(sep).join('/');
      // The checker's own comments and test fixtures cite on purpose.
      if (file.startsWith('scripts/check-doc-references')) continue;
      files += 1;
      const result = checkFile(root, file, readFileSync(absolute, 'utf8'), sections);
      problems.push(...result.problems);
      citations += result.citations;
    }
  }
  return { problems, citations, files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { problems, citations, files } = checkRepository(root);
  if (problems.length > 0) {
    console.error(`${problems.length} broken document reference(s):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(
    `Document references: ${citations} section citations in ${files} files, all resolve.`,
  );
}
