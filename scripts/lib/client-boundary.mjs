/**
 * Client code is the module that starts with the 'use client' directive, whatever its file is
 * called (docs/decisions/014-layers.md). Read the way Next.js reads it: a directive of the
 * module's prologue, the string-literal statements before anything else; a comment, a
 * parenthesised string or the same words further down are not one. One reader for both checks:
 * the ESLint rule `layers/client-imports` here (one file at a time) and scripts/check-imports.ts
 * (everything a client module imports, however indirectly). Plain JavaScript, so that
 * eslint.config.mjs loads it without a compiler.
 */
import tseslint from 'typescript-eslint';

/**
 * Whether a parsed module (an ESTree Program) is client code.
 * @param {{ body: ReadonlyArray<{ directive?: string | null }> }} program
 */
export function isClientModule(program) {
  for (const statement of program.body) {
    // The parser marks the prologue's statements, and only them, with their directive.
    if (typeof statement.directive !== 'string') return false;
    if (statement.directive === 'use client') return true;
  }
  return false;
}

/**
 * Whether a source file is client code; the file path tells the parser whether it holds JSX.
 * @param {string} text
 * @param {string} filePath
 */
export function isClientSource(text, filePath) {
  // Most files never mention the directive: they need no parse.
  if (!text.includes('use client')) return false;
  return isClientModule(tseslint.parser.parseForESLint(text, { filePath }).ast);
}

/**
 * @typedef {{ regex: string, message: string, allowTypeImports?: boolean }} Pattern
 * @typedef {{ type: string, value?: unknown }} SourceNode
 */

/** Reports every import of a client module whose source matches one of the patterns given. */
const clientImports = {
  meta: {
    type: 'problem',
    docs: { description: "A 'use client' module imports nothing the browser must not have." },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            regex: { type: 'string' },
            message: { type: 'string' },
            allowTypeImports: { type: 'boolean' },
          },
          required: ['regex', 'message'],
          additionalProperties: false,
        },
      },
    ],
    messages: { forbidden: "'{{source}}' is out of a 'use client' module's reach: {{message}}" },
  },
  /** @param {import('eslint').Rule.RuleContext} context */
  create(context) {
    if (!isClientModule(context.sourceCode.ast)) return {};
    /** @type {Pattern[]} */
    const patterns = context.options[0] ?? [];
    const compiled = patterns.map((pattern) => ({
      ...pattern,
      re: new RegExp(pattern.regex, 'u'),
    }));
    /**
     * @param {SourceNode} node the import's source string
     * @param {boolean} typeOnly whether the import brings in types alone (erased when compiled)
     */
    const check = (node, typeOnly) => {
      if (node.type !== 'Literal' || typeof node.value !== 'string') return;
      const source = node.value;
      const hit = compiled.find((pattern) => pattern.re.test(source));
      if (!hit || (typeOnly && hit.allowTypeImports)) return;
      context.report({
        node: /** @type {import('estree').Node} */ (node),
        messageId: 'forbidden',
        data: { source, message: hit.message },
      });
    };
    /** @param {{ specifiers: ReadonlyArray<{ importKind?: string, exportKind?: string }> }} node */
    const allInlineTypes = (node) =>
      node.specifiers.length > 0 &&
      node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
    // typescript-eslint's node shapes (importKind, TSImportEqualsDeclaration) are not ESTree's.
    /** @type {Record<string, (node: any) => void>} */
    const visitors = {
      ImportDeclaration: (node) =>
        check(node.source, node.importKind === 'type' || allInlineTypes(node)),
      ExportNamedDeclaration: (node) => {
        if (node.source) check(node.source, node.exportKind === 'type' || allInlineTypes(node));
      },
      ExportAllDeclaration: (node) => check(node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node.source, false),
      TSImportEqualsDeclaration: (node) => {
        if (node.moduleReference.type === 'TSExternalModuleReference') {
          check(node.moduleReference.expression, node.importKind === 'type');
        }
      },
    };
    return visitors;
  },
};

/** The local plugin eslint.config.mjs registers as `layers`. */
export default {
  meta: { name: 'layers' },
  rules: { 'client-imports': clientImports },
};
