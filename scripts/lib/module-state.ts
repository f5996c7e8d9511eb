/**
 * Finds state kept at the top level of a module that is not made through `singleton()`.
 *
 * Server code runs in more than one copy per process: the front server's own bundle
 * (dist/server) and Next.js's bundles, where instrumentation, pages and route handlers are
 * separate layers that each load a module again (docs/decisions/047-module-state.md). A
 * module-level `let`, a cache or an AsyncLocalStorage would then exist once per copy: an edit
 * clears one copy's cache and another copy serves the stale value. So process-wide state is made
 * with `singleton()` (src/lib/singleton.ts), which keeps one value per process under a name.
 *
 * What counts as state, decided from an allow-list:
 * - a top-level `let` or `var`;
 * - a top-level `new X(…)` unless X makes a value that cannot change (IMMUTABLE_CONSTRUCTORS),
 *   or X is a collection that no function of the module changes (a lookup table filled while the
 *   module loads is the same in every copy).
 * Everything else at the top level is a constant, a function or a value computed once from
 * constants, which is the same in every copy. A reviewed exception says why in a comment that
 * starts with `module-state:` just above it.
 */
import ts from 'typescript';

/** Constructors whose instances cannot change after they are made. */
const IMMUTABLE_CONSTRUCTORS = new Set([
  'Intl.DateTimeFormat',
  'Intl.NumberFormat',
  'Intl.Collator',
  'Intl.Segmenter',
  'Intl.PluralRules',
  'Intl.RelativeTimeFormat',
  'Intl.ListFormat',
  'TextEncoder',
  'TextDecoder',
  'RegExp',
  'URL',
  'Error',
]);

/** Collections that are constants as long as no function calls one of these on them. */
const READ_ONLY_WHEN_UNCHANGED = new Set(['Map', 'Set', 'Array', 'Uint8Array', 'Uint16Array']);
const CHANGING_METHODS = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'fill',
  'sort',
]);
const EXCEPTION = /\/\/\s*module-state:/;

export interface ModuleState {
  line: number;
  name: string;
  why: string;
}

export function moduleState(fileName: string, text: string): ModuleState[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const changed = changedCollections(source);
  const found: ModuleState[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const keyword =
      list.flags & ts.NodeFlags.Let ? 'let' : list.flags & ts.NodeFlags.Const ? 'const' : 'var';
    const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
    if (comments.some((range) => EXCEPTION.test(text.slice(range.pos, range.end)))) continue;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
      if (keyword !== 'const') {
        found.push({ line, name, why: `a top-level \`${keyword}\`` });
        continue;
      }
      const init = declaration.initializer && unwrap(declaration.initializer);
      if (!init || !ts.isNewExpression(init)) continue;
      const made = init.expression.getText(source);
      if (IMMUTABLE_CONSTRUCTORS.has(made)) continue;
      if (READ_ONLY_WHEN_UNCHANGED.has(made) && !changed.has(name)) continue;
      found.push({ line, name, why: `a top-level \`new ${made}\`` });
    }
  }
  return found;
}

/** `x as T`, `x satisfies T`, `(x)` and `x!` are the value x. */
function unwrap(node: ts.Expression): ts.Expression {
  while (
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** Names on which a function of the module calls one of CHANGING_METHODS. */
function changedCollections(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node, inFunction: boolean) => {
    if (
      inFunction &&
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      CHANGING_METHODS.has(node.expression.name.text)
    ) {
      names.add(node.expression.expression.text);
    }
    const inside = inFunction || ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node);
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, false);
  return names;
}
