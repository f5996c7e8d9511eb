/**
 * What the fuzz run aims at, read from the source tree and the build: every page and route
 * handler (the build's app-path-routes-manifest.json, with the methods each route.ts exports),
 * every form (its action and the field names the same file uses), the content API endpoints
 * and the front server's own prefixes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_MODEL } from '../../../src/lib/cms/model';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export type Route = {
  /** `/posts/[contentId]`, as the manifest spells it. */
  template: string;
  kind: 'page' | 'handler';
  /** The methods the handler exports (pages: GET). */
  methods: string[];
};

export type Form = { action: string; fields: string[] };

/** The HTTP methods a route.ts exports, in either style the app uses. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(
    /export\s+(?:async\s+)?(?:function|const)\s+(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g,
  )) {
    found.add(m[1]!);
  }
  for (const block of source.matchAll(/export\s*(?:const\s*)?\{([^}]*)\}/g)) {
    for (const name of block[1]!.split(',')) {
      const exported = name
        .trim()
        .split(/\s+as\s+/)
        .at(-1)!
        .trim();
      if ((HTTP_METHODS as readonly string[]).includes(exported)) found.add(exported);
    }
  }
  return [...found].sort();
}

/**
 * The forms of one component file: every `action="/…"` (template literals with `${…}` become
 * `[param]`) with the field names the file declares. A file with several forms gives each of
 * them every name: more fields than the form has is still a malformed request worth sending.
 */
export function formsIn(source: string): Form[] {
  const fields = [...new Set([...source.matchAll(/\bname="([A-Za-z_.-]+)"/g)].map((m) => m[1]!))];
  const actions = [...source.matchAll(/action=\{?["'`](\/[^"'`#?]*)/g)].map((m) =>
    m[1]!.replace(/\$\{[^}]*\}/g, '[param]'),
  );
  return [...new Set(actions)].map((action) => ({ action, fields }));
}

/** Replaces each `[x]` / `[...x]` segment of a template with what `fill` gives for it. */
export function fillTemplate(template: string, fill: (param: string) => string): string {
  return template.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, param: string) => fill(param));
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every route of the build, with the methods of its handler. */
export function discoverRoutes(root: string): Route[] {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(root, '.next/app-path-routes-manifest.json'), 'utf8'),
  ) as Record<string, string>;
  const routes: Route[] = [];
  for (const [entry, template] of Object.entries(manifest)) {
    if (template.startsWith('/_')) continue; // the framework's own error pages
    if (entry.endsWith('/page')) {
      routes.push({ template, kind: 'page', methods: ['GET'] });
      continue;
    }
    const dir = path.join(root, 'src/app', entry.replace(/\/route$/, ''));
    const file = ['route.ts', 'route.tsx'].map((f) => path.join(dir, f)).find(fs.existsSync);
    const methods = file ? exportedMethods(fs.readFileSync(file, 'utf8')) : ['GET'];
    routes.push({ template, kind: 'handler', methods: methods.length ? methods : ['GET'] });
  }
  return routes;
}

export function discoverForms(root: string): Form[] {
  const forms = new Map<string, Set<string>>();
  for (const dir of ['src/components', 'src/app']) {
    for (const file of walk(path.join(root, dir))) {
      for (const form of formsIn(fs.readFileSync(file, 'utf8'))) {
        const known = forms.get(form.action) ?? new Set<string>();
        for (const field of form.fields) known.add(field);
        forms.set(form.action, known);
      }
    }
  }
  return [...forms].map(([action, fields]) => ({ action, fields: [...fields] }));
}

/** The content API's endpoints (src/lib/cms/model.ts), list and object kinds. */
export function contentEndpoints(): { endpoint: string; list: boolean; fields: string[] }[] {
  return CONTENT_MODEL.map((def) => ({
    endpoint: def.endpoint,
    list: def.kind !== 'object',
    fields: def.fields.map((f) => f.id),
  }));
}
