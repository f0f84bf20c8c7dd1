import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// What `pnpm typecheck` cannot refuse in a statement built once (compiled-once.ts): TypeScript lets
// `!v.flag`, `v.flag || x` and `if (v.flag)` whose branch uses `v.flag` again pass. This reads every
// build function in server/src and refuses a test of one of its values, whatever its form.

const root = path.resolve(import.meta.dirname, '../../server/src')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

type Fn = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration

/** The build functions passed to compiledOnce in a file: inline, or a function of the file by name. */
function buildFunctions(file: ts.SourceFile): Fn[] {
  const named = new Map<string, Fn>()
  const calls: ts.Expression[] = []
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) {
        named.set(node.name.text, node.initializer)
      }
    }
    if (ts.isFunctionDeclaration(node) && node.name) named.set(node.name.text, node)
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'compiledOnce'
    ) {
      const build = node.arguments[2]
      if (build) calls.push(build)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return calls.flatMap((build) => {
    if (ts.isArrowFunction(build) || ts.isFunctionExpression(build)) return [build]
    const fn = ts.isIdentifier(build) ? named.get(build.text) : undefined
    if (!fn) throw new Error(`${file.fileName}: a build function compiledOnce cannot follow`)
    return [fn]
  })
}

/** Whether `node` is the values object or one of its values (`v`, `v.x`, `v['x']`, `(v.x)`). */
function isValue(node: ts.Expression, values: string): boolean {
  const bare = ts.skipPartiallyEmittedExpressions(ts.isParenthesizedExpression(node) ? node.expression : node)
  if (ts.isIdentifier(bare)) return bare.text === values
  if (ts.isPropertyAccessExpression(bare) || ts.isElementAccessExpression(bare)) {
    return ts.isIdentifier(bare.expression) && bare.expression.text === values
  }
  return false
}

const TESTS = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
])

/** Every test of a value in `fn`: where a statement's shape could follow its values. */
function testsOfValues(fn: Fn, file: ts.SourceFile): string[] {
  const first = fn.parameters[0]
  if (!first || !ts.isIdentifier(first.name)) return []
  const values = first.name.text
  const found: string[] = []
  const at = (node: ts.Node) =>
    `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${node.getText(file)}`
  const visit = (node: ts.Node) => {
    const tested =
      (ts.isIfStatement(node) && [node.expression]) ||
      (ts.isConditionalExpression(node) && [node.condition]) ||
      (ts.isWhileStatement(node) && [node.expression]) ||
      (ts.isSwitchStatement(node) && [node.expression]) ||
      (ts.isPrefixUnaryExpression(node) &&
        node.operator === ts.SyntaxKind.ExclamationToken && [node.operand]) ||
      (ts.isBinaryExpression(node) && TESTS.has(node.operatorToken.kind) && [node.left, node.right]) ||
      []
    for (const expression of tested) if (isValue(expression, values)) found.push(at(node))
    ts.forEachChild(node, visit)
  }
  if (fn.body) visit(fn.body)
  return found
}

describe('statements built once in server/src', () => {
  it('use their values only as values: no test of one chooses the shape', () => {
    const builds = sourceFiles(root).flatMap((name) => {
      const text = fs.readFileSync(name, 'utf8')
      if (!text.includes('compiledOnce(')) return []
      const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true)
      return buildFunctions(file).map((fn) => ({ fn, file }))
    })
    expect(builds.length).toBeGreaterThanOrEqual(8)
    expect(builds.flatMap(({ fn, file }) => testsOfValues(fn, file))).toEqual([])
  })

  it('would be refused for each form TypeScript lets pass', () => {
    const file = ts.createSourceFile(
      'lies.ts',
      `compiledOnce(db, 'a', (v) => !v.flag ? a : b)
       compiledOnce(db, 'b', (v) => q.where('x', '=', v.flag || 1))
       compiledOnce(db, 'c', (v) => { if (v.flag) return q.where('x', '=', v.flag); return q })
       compiledOnce(db, 'd', (v) => (v.list ?? []).length)
       compiledOnce(db, 'e', (v) => q.where('x', '=', v.fine))`,
      ts.ScriptTarget.Latest,
      true,
    )
    const found = buildFunctions(file).map((fn) => testsOfValues(fn, file).length)
    expect(found).toEqual([1, 1, 1, 1, 0])
  })
})
