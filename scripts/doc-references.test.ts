import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Everything a comment or a document cites must be in this repository, so that a maintainer who
 * clones it can follow every reference (docs/decisions/000-design-baseline.md, "Conventions").
 * The specification is vendored as docs/spec.md ("SPEC §N"); the design the project started
 * from lives in docs/decisions/. The issue tracker and the design document the project began
 * with are not in the repository, so neither may be cited.
 */

const root = path.resolve(import.meta.dirname, '..');
const SCANNED_DIRS = ['src', 'scripts', 'bench', 'tests', 'docs', '.ci'];
const SCANNED_EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|md|css|sh|ya?ml)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.next', 'test-results', 'playwright-report']);
const SELF = path.relative(root, import.meta.filename);

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && SCANNED_EXTENSIONS.test(entry.name)) out.push(full);
  }
}

function scannedFiles(): string[] {
  const files: string[] = [];
  for (const dir of SCANNED_DIRS) {
    const full = path.join(root, dir);
    if (fs.existsSync(full)) walk(full, files);
  }
  for (const entry of fs.readdirSync(root, { withFileTypes: true }))
    if (entry.isFile() && /^(?:README\.md|.*\.(?:ts|mts|mjs|cjs|js))$/.test(entry.name))
      files.push(path.join(root, entry.name));
  return files.map((file) => path.relative(root, file)).filter((file) => file !== SELF);
}

/** References to what is not in the repository, with what to cite instead. */
const OUTSIDE: readonly { pattern: RegExp; instead: string }[] = [
  {
    pattern: /\bDESIGN\.md\b/,
    instead: 'docs/decisions/ (000-design-baseline.md and the records)',
  },
  {
    pattern: /\bDESIGN\b(?=\s*(?:decision|conventions|["':)]|'s))/,
    instead: 'docs/decisions/ (000-design-baseline.md and the records)',
  },
  { pattern: /\bSPEC\.md\b/, instead: 'docs/spec.md ("SPEC §N")' },
  { pattern: /\b[Ii]ssues? #?\d+/, instead: 'the decision record, or the reason itself' },
];

/** A docs/ path as cited in prose or code (not the tail of a URL such as example.org/docs/…). */
const DOCS_PATH = /(?<![\w-]\/|[\w-])docs\/[\w./-]*/g;

const DECISIONS = 'docs/decisions';
/** A decision record's file name: its number, then its title. */
const RECORD_FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
/** A record named without its folder (`see 039-reader-path.md`). */
const RECORD_NAME = /(?<![\w/-])\d{3}-[a-z0-9-]+\.md\b/g;
/** A record cited by number in prose (`decision 029`). */
const RECORD_NUMBER = /\b[Dd]ecisions? (\d{3})\b/g;

const recordFiles = (): string[] =>
  fs.readdirSync(path.join(root, DECISIONS)).filter((name) => RECORD_FILE.test(name));
const recordNumbers = (): Set<string> =>
  new Set(recordFiles().map((name) => RECORD_FILE.exec(name)![1]!));

interface Finding {
  where: string;
  what: string;
}

function findings(): Finding[] {
  const found: Finding[] = [];
  const numbers = recordNumbers();
  for (const file of scannedFiles()) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      for (const { pattern, instead } of OUTSIDE) {
        const match = pattern.exec(line);
        if (match) found.push({ where, what: `cites "${match[0]}"; cite ${instead}` });
      }
      for (const match of line.matchAll(DOCS_PATH)) {
        const cited = match[0].replace(/[.,:;]+$/, '');
        // A pattern for a new record's name, not a file.
        if (cited.includes('NNN')) continue;
        if (!fs.existsSync(path.join(root, cited)))
          found.push({ where, what: `cites ${cited}, which does not exist` });
      }
      for (const [name] of line.matchAll(RECORD_NAME))
        if (!fs.existsSync(path.join(root, DECISIONS, name)))
          found.push({ where, what: `names the record ${name}, which does not exist` });
      for (const [cited, number] of line.matchAll(RECORD_NUMBER))
        if (!numbers.has(number!))
          found.push({ where, what: `cites "${cited}", but no record has that number` });
    });
  }
  return found;
}

describe('references in source and documentation', () => {
  it('scans the repository', () => {
    const files = scannedFiles();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/spec.md');
    expect(files.some((file) => file.startsWith('src/'))).toBe(true);
  });

  it('cite only what is in the repository', () => {
    const report = findings().map(({ where, what }) => `${where}: ${what}`);
    expect(report).toEqual([]);
  });

  it('recognise what points outside', () => {
    const cited = (line: string) => OUTSIDE.some(({ pattern }) => pattern.test(line));
    expect(cited('// see DESIGN.md "Who reads what"')).toBe(true);
    expect(cited('// (DESIGN: a snackbar message)')).toBe(true);
    expect(cited('// DESIGN decision 6')).toBe(true);
    expect(cited('// found in issue 13')).toBe(true);
    expect(cited('// Issue #10, hole 5')).toBe(true);
    expect(cited('// the product as given in SPEC.md')).toBe(true);
    expect(cited("['DESIGN TODAY 2026', 'ｄｅｓｉｇｎ']")).toBe(false);
    expect(cited('// SPEC §7: the free-plan list (docs/spec.md)')).toBe(false);
    expect(cited("/** The issue's date: when it was published. */")).toBe(false);
  });

  it('tell a docs/ path from the tail of a URL', () => {
    const paths = (line: string) => [...line.matchAll(DOCS_PATH)].map((m) => m[0]);
    expect(paths('see docs/decisions/007-pages-per-audience.md.')).toEqual([
      'docs/decisions/007-pages-per-audience.md.',
    ]);
    expect(paths("path.resolve(dir, '../docs/content-model.md')")).toEqual([
      'docs/content-model.md',
    ]);
    expect(paths('https://nextjs.org/docs/app/api-reference')).toEqual([]);
  });
});

/**
 * docs/decisions/README.md is the index of the records: every record has its line there, and
 * every number names one record, so that "decision 021" cannot mean two things.
 */
describe('decision records', () => {
  const index = fs.readFileSync(path.join(root, DECISIONS, 'README.md'), 'utf8');

  it('are numbered files, one record per number', () => {
    const names = fs.readdirSync(path.join(root, DECISIONS));
    expect(names.filter((name) => name !== 'README.md' && !RECORD_FILE.test(name))).toEqual([]);
    const files = recordFiles();
    const shared = files.filter((name) =>
      files.some((other) => other !== name && other.slice(0, 3) === name.slice(0, 3)),
    );
    expect(shared).toEqual([]);
  });

  it('each start with their own number', () => {
    const misnumbered = recordFiles().filter((name) => {
      const heading = fs.readFileSync(path.join(root, DECISIONS, name), 'utf8').split('\n', 1)[0];
      return !heading?.startsWith(`# ${name.slice(0, 3)}`);
    });
    expect(misnumbered).toEqual([]);
  });

  it('are each listed in the index, under their own number, and it lists nothing else', () => {
    const listed = [...index.matchAll(/^- \[(\d{3})\]\(([^)]+)\)/gm)].map(([, number, file]) => ({
      number,
      file,
    }));
    expect(listed.filter(({ number, file }) => !file!.startsWith(`${number}-`))).toEqual([]);
    expect(listed.map(({ file }) => file).sort()).toEqual(recordFiles().sort());
  });

  it('tell a record named in prose from other names', () => {
    const names = (line: string) => [...line.matchAll(RECORD_NAME)].map((m) => m[0]);
    expect(names('(1 hour, see 039-reader-path.md)')).toEqual(['039-reader-path.md']);
    expect(names('docs/decisions/039-reader-path.md')).toEqual([]);
    expect(names('backup-2026-11-29.md')).toEqual([]);
    const numbers = (line: string) => [...line.matchAll(RECORD_NUMBER)].map((m) => m[1]);
    expect(numbers('as decision 022 says; Decisions 043 and')).toEqual(['022', '043']);
    expect(numbers('the decisions (011, 024) promise')).toEqual([]);
  });
});
