import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './lib/source-files';

/**
 * CSS modules fail silently: `styles.missing` is undefined, the element renders unstyled and
 * neither TypeScript nor the build says a word. So every class a component reads from a module
 * must be defined in that module, and every `composes:` must name a class that exists. Static
 * names only (`styles.x`, `styles['x']`, and the fixed start of `styles[`badge-${status}`]`); an
 * index by variable cannot be read without running the code.
 */

const SRC = path.join(repoRoot, 'src');
const filesInSrc = (name: RegExp) =>
  sourceFiles(['src'], name).map((file) => path.join(repoRoot, file));

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** A module's rules as selector and body, innermost first (so rules inside @media count). */
function rules(css: string): { selector: string; body: string }[] {
  return [...withoutComments(css).matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => ({
    selector: selector!.trim(),
    body: body!,
  }));
}

/** The local class names a module defines (what its `styles` object has). */
function definedClasses(css: string): Set<string> {
  const names = new Set<string>();
  for (const { selector } of rules(css)) {
    // :global(.x) is the page's class, not one of the module's.
    const local = selector.replace(/:global\([^)]*\)/g, '').replace(/'[^']*'|"[^"]*"/g, '');
    for (const [, name] of local.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)) names.add(name!);
  }
  return names;
}

type Composition = { owner: string; names: string[]; from: string | null };

/** Each `composes:` of a module: the class that composes, what it names, and from where. */
function compositions(css: string): Composition[] {
  return rules(css).flatMap(({ selector, body }) =>
    [
      ...body.matchAll(/composes:\s*([^;]+?)(?:\s+from\s+(?:'([^']+)'|"([^"]+)"|(global)))?\s*;/g),
    ].map(([, names, single, double, global]) => ({
      owner: selector.replace(/^\./, ''),
      names: names!.trim().split(/\s+/),
      from: global ? 'global' : (single ?? double ?? null),
    })),
  );
}

/** The static class names a source file reads through the binding `name`. */
function classesRead(source: string, name: string): { exact: string[]; prefixes: string[] } {
  const exact = [
    ...[...source.matchAll(new RegExp(`\\b${name}\\.([A-Za-z_$][\\w$]*)`, 'g'))].map((m) => m[1]!),
    ...[...source.matchAll(new RegExp(`\\b${name}\\[\\s*(?:'([^']+)'|"([^"]+)")\\s*\\]`, 'g'))].map(
      (m) => (m[1] ?? m[2])!,
    ),
  ];
  const prefixes = [...source.matchAll(new RegExp(`\\b${name}\\[\\s*\`([^\`$]*)\\$\\{`, 'g'))].map(
    (m) => m[1]!,
  );
  return { exact, prefixes };
}

const resolveImport = (from: string, specifier: string) =>
  specifier.startsWith('@/')
    ? path.join(SRC, specifier.slice(2))
    : path.resolve(path.dirname(from), specifier);

const relative = (file: string) => path.relative(repoRoot, file);
const cssCache = new Map<string, string>();
const readCss = (file: string) => {
  if (!cssCache.has(file)) cssCache.set(file, fs.readFileSync(file, 'utf8'));
  return cssCache.get(file)!;
};

describe('CSS modules', () => {
  it('define every class a component reads from them', () => {
    const problems: string[] = [];
    let reads = 0;
    for (const file of filesInSrc(/\.tsx?$/)) {
      const text = fs.readFileSync(file, 'utf8');
      // Uses are read from the code without its imports (`staff.module` in a path is no use).
      const source = text.replace(/^import\s[^;]*;/gm, '');
      for (const [, binding, specifier] of text.matchAll(
        /^import\s+(\w+)\s+from\s+'([^']+\.module\.css)';/gm,
      )) {
        const cssFile = resolveImport(file, specifier!);
        if (!fs.existsSync(cssFile)) {
          problems.push(`${relative(file)}: imports ${specifier}, which does not exist`);
          continue;
        }
        const defined = definedClasses(readCss(cssFile));
        const { exact, prefixes } = classesRead(source, binding!);
        reads += exact.length + prefixes.length;
        for (const name of new Set(exact))
          if (!defined.has(name))
            problems.push(`${relative(file)}: ${binding}.${name} is not in ${specifier}`);
        for (const prefix of new Set(prefixes))
          if (![...defined].some((name) => name.startsWith(prefix)))
            problems.push(`${relative(file)}: no class in ${specifier} starts with "${prefix}"`);
      }
    }
    // The scan finds the imports (hundreds of reads), so an empty report means something.
    expect(reads).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('compose only classes that exist', () => {
    const problems: string[] = [];
    for (const file of filesInSrc(/\.module\.css$/)) {
      for (const { owner, names, from } of compositions(readCss(file))) {
        if (from === 'global') continue;
        const target = from ? resolveImport(file, from) : file;
        if (!fs.existsSync(target)) {
          problems.push(`${relative(file)}: .${owner} composes from ${from}, which does not exist`);
          continue;
        }
        const defined = definedClasses(readCss(target));
        for (const name of names)
          if (!defined.has(name))
            problems.push(
              `${relative(file)}: .${owner} composes ${name}, not in ${from ?? 'itself'}`,
            );
      }
    }
    expect(problems).toEqual([]);
  });

  // The bundler does not carry a composition on: `.b { composes: a; }` gets .a's own rules but
  // not what .a composes from another module. The paywall's second plan button composed its
  // primary, lost the primary's tap target and was drawn as inline text between empty boxes.
  it('compose a class of the same module only when it composes nothing from another', () => {
    const problems: string[] = [];
    for (const file of filesInSrc(/\.module\.css$/)) {
      const all = compositions(readCss(file));
      const importing = new Set(
        all.filter((c) => c.from && c.from !== 'global').map((c) => c.owner),
      );
      for (const { owner, names, from } of all)
        if (from === null)
          for (const name of names.filter((n) => importing.has(n)))
            problems.push(
              `${relative(file)}: .${owner} composes .${name}, which composes from another module: compose that module's class in .${owner} too`,
            );
    }
    expect(problems).toEqual([]);
  });

  it('read modules as CSS modules do', () => {
    const css = `/* .commented { } */
      .a { composes: b c from './x.module.css'; color: red; }
      .b { composes: a; }
      .c { composes: visually-hidden from global; }
      @media (min-width: 40rem) { .d:hover > .e { width: 1.5rem; } }
      .f :global(.Outside) { margin: 0 }
      .badge-draft { content: '.quoted'; }`;
    expect([...definedClasses(css)].sort()).toEqual(['a', 'b', 'badge-draft', 'c', 'd', 'e', 'f']);
    expect(compositions(css)).toEqual([
      { owner: 'a', names: ['b', 'c'], from: './x.module.css' },
      { owner: 'b', names: ['a'], from: null },
      { owner: 'c', names: ['visually-hidden'], from: 'global' },
    ]);
    expect(classesRead("s.a; s['b-c']; s[`badge-${x}`]; s[key]; other.z; s.d.length", 's')).toEqual(
      { exact: ['a', 'd', 'b-c'], prefixes: ['badge-'] },
    );
  });
});
