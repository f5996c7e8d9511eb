import { describe, expect, it } from 'vitest';
import {
  deepImports,
  describeLoop,
  folderArrows,
  folderLoops,
  serverFolder,
  tierBreaches,
  type FileGraph,
} from './folder-graph';

describe('serverFolder', () => {
  it('names the folder under src/server, or the tier and folder inside a tier', () => {
    expect(serverFolder('src/server/cms/store.ts')).toBe('cms');
    expect(serverFolder('src/server/cms/console/save.ts')).toBe('cms');
    expect(serverFolder('src/server/features/billing/sandbox/router.ts')).toBe('features/billing');
    expect(serverFolder('src/server/platform/db/schema.ts')).toBe('platform/db');
  });

  it('has no folder for the root of src/server, a tier root, or files elsewhere', () => {
    expect(serverFolder('src/server/boot.ts')).toBeNull();
    expect(serverFolder('src/server/features/README.md')).toBeNull();
    expect(serverFolder('src/lib/errors.ts')).toBeNull();
    expect(serverFolder('src/app/page.tsx')).toBeNull();
  });
});

describe('folderArrows and folderLoops', () => {
  // a → b → c → a is one loop; d ↔ e another; f → a is no part of either.
  const graph: FileGraph = {
    'src/server/a/one.ts': ['src/server/b/one.ts', 'src/server/a/two.ts'],
    'src/server/a/two.ts': ['src/server/b/two.ts'],
    'src/server/b/one.ts': ['src/server/c/one.ts'],
    'src/server/b/two.ts': [],
    'src/server/c/one.ts': ['src/server/a/two.ts', 'src/lib/pure.ts'],
    'src/server/d/one.ts': ['src/server/e/one.ts'],
    'src/server/e/one.ts': ['src/server/d/one.ts'],
    'src/server/f/one.ts': ['src/server/a/one.ts'],
    // A test may reach anywhere: its import draws no arrow.
    'src/server/a/one.test.ts': ['src/server/f/one.ts'],
    'src/lib/pure.ts': [],
  };

  it('draws one arrow per pair of folders, with the first import as its example', () => {
    const arrows = folderArrows(graph);
    expect(arrows.map(({ from, to }) => `${from}→${to}`).sort()).toEqual([
      'a→b',
      'b→c',
      'c→a',
      'd→e',
      'e→d',
      'f→a',
    ]);
    expect(arrows.find(({ from }) => from === 'a')?.example).toEqual({
      file: 'src/server/a/one.ts',
      imports: 'src/server/b/one.ts',
    });
  });

  it('finds each group of folders that reach each other, largest first', () => {
    const loops = folderLoops(folderArrows(graph));
    expect(loops.map((loop) => loop.map(({ from, to }) => `${from}→${to}`).sort())).toEqual([
      ['a→b', 'b→c', 'c→a'],
      ['d→e', 'e→d'],
    ]);
    expect(describeLoop(loops[1] ?? [])).toContain('folder loop of 2: d, e');
    expect(describeLoop(loops[1] ?? [])).toContain(
      'd → e (src/server/d/one.ts imports src/server/e/one.ts)',
    );
  });

  it('finds no loop once the closing arrow goes', () => {
    const open = { ...graph, 'src/server/c/one.ts': [], 'src/server/e/one.ts': [] };
    expect(folderLoops(folderArrows(open))).toEqual([]);
  });
});

describe('deepImports', () => {
  const graph: FileGraph = {
    'src/server/features/gifts/send.ts': [
      'src/server/features/billing/index.ts',
      'src/server/features/billing/plans.ts',
      'src/server/features/gifts/limit.ts',
      'src/server/platform/db/client.ts',
    ],
    'src/server/boot.ts': ['src/server/features/gifts/subscribe.ts'],
    'src/server/features/gifts/send.test.ts': ['src/server/features/billing/plans.ts'],
    'src/app/page.tsx': ['src/server/features/billing/plans.ts'],
  };

  it('refuses an import past another feature’s index.ts from src/server', () => {
    expect(deepImports(graph)).toEqual([
      { file: 'src/server/boot.ts', imports: 'src/server/features/gifts/subscribe.ts' },
      {
        file: 'src/server/features/gifts/send.ts',
        imports: 'src/server/features/billing/plans.ts',
      },
    ]);
  });
});

describe('tierBreaches', () => {
  const arrows = folderArrows({
    'src/server/platform/db/client.ts': ['src/server/platform/logging/log.ts'],
    'src/server/platform/http/endpoint.ts': ['src/server/features/identity/index.ts'],
    'src/server/services/content/store.ts': ['src/server/platform/db/client.ts'],
    'src/server/services/sandbox/router.ts': ['src/server/services/content/store.ts'],
    'src/server/features/billing/plans.ts': [
      'src/server/services/sandbox/router.ts',
      'src/server/features/identity/index.ts',
    ],
    'src/server/cms/store.ts': ['src/server/newsletter/queue.ts'],
  });

  it('refuses platform above itself and a service leaning on anything but platform', () => {
    expect(tierBreaches(arrows).map(({ from, to }) => `${from}→${to}`)).toEqual([
      'platform/http→features/identity',
      'services/sandbox→services/content',
    ]);
  });
});
