/**
 * The architecture's rules that imports cannot show (those are dependency-cruiser's, `npm run
 * lint`): every SQL statement lives in src/store/ (docs/architecture.md). Every module of src/
 * outside it (tests beside the code aside) is parsed, and a statement is anything that runs one
 * (a session's `query` or `queryRows`, a Kysely builder, Kysely's `sql` tag) or a string or
 * template that reads as SQL; comments and regular expressions are not looked at.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Methods that run SQL: a BulkSession's raw statements, and Kysely's query builders. */
const RUNS_SQL = new Set(['query', 'queryRows', 'selectFrom', 'insertInto', 'deleteFrom', 'updateTable', 'replaceInto', 'mergeInto']);

/** A selected column: a name or expression without spaces, then perhaps `as k` or `is not null`. */
const COLUMN = String.raw`[\w.*()]+(\s+(as|is(\s+not)?)\s+[\w.]+)?`;

/** Text that reads as SQL (a statement, or a piece of one), in a string or template (`${…}` read as `x`). */
const SQL_TEXT = [
  /\bwith\s+\w+\s*\([\w\s,]*\)\s+as\s*\(/i,
  new RegExp(`\\bselect\\s+(distinct\\s+)?${COLUMN}(\\s*,\\s*${COLUMN})*\\s+from\\s+\\w`, 'i'),
  /\binsert\s+into\s+\w/i,
  /\bdelete\s+from\s+\w/i,
  /\bupdate\s+\w+\s+set\s/i,
  /\bon\s+conflict\b/i,
  /\b(order|group)\s+by\s+[\w.]+(\s+(asc|desc))?\s*(,|limit\b|$)/i,
  /\bwhere\s+[\w.]+\s*(=|<|>|<=|>=|in|is)\s*(\?|\()/i,
  /\blimit\s+(\?|\d+)\s*$/i,
];

/**
 * SQL left outside store/ on purpose, by file and the text it holds: each must still be there
 * (a stale entry fails), so the list only shrinks.
 */
const EXCEPTIONS: { file: string; text: string; why: string }[] = [];

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return modules(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The SQL of one module (`file`'s text): each statement found, with its line, what it is and its text. */
function sqlIn(file: string, text: string): { line: number; what: string; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { line: number; what: string; text: string }[] = [];
  const at = (n: ts.Node, what: string) =>
    found.push({ line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1, what, text: n.getText(source) });
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && RUNS_SQL.has(n.expression.name.text)) {
      at(n, `runs SQL (.${n.expression.name.text})`);
    } else if (ts.isTaggedTemplateExpression(n) && n.tag.getText(source) === 'sql') {
      at(n, "runs SQL (Kysely's sql tag)");
      return;
    } else if (ts.isImportDeclaration(n) && (n.moduleSpecifier as ts.StringLiteral).text === 'kysely') {
      const named = n.importClause?.namedBindings;
      if (
        !n.importClause?.isTypeOnly &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.some((e) => !e.isTypeOnly && e.name.text === 'sql')
      )
        at(n, "imports Kysely's sql");
    } else if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      const literal = ts.isTemplateExpression(n) ? [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join('x') : n.text;
      if (SQL_TEXT.some((re) => re.test(literal))) at(n, 'SQL text');
      if (ts.isTemplateExpression(n)) n.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe('the architecture', () => {
  const outside = modules(SRC)
    .map((f) => relative(ROOT, f))
    .filter((f) => !f.startsWith('src/store/'))
    .sort();

  it('has no SQL outside src/store/', () => {
    const excepted = new Set<(typeof EXCEPTIONS)[number]>();
    const found = outside.flatMap((file) =>
      sqlIn(file, readFileSync(join(ROOT, file), 'utf8'))
        .filter((s) => {
          const e = EXCEPTIONS.find((x) => x.file === file && s.text.includes(x.text));
          if (e) excepted.add(e);
          return !e;
        })
        .map((s) => `${file}:${s.line}: ${s.what}: ${s.text.split('\n')[0].slice(0, 100)}`),
    );
    expect(found, 'SQL belongs in src/store/, behind a named function (docs/architecture.md)').toEqual([]);
    expect(
      EXCEPTIONS.filter((e) => !excepted.has(e)).map((e) => `${e.file}: ${e.text}`),
      'exceptions no longer needed',
    ).toEqual([]);
  });

  it('finds SQL however it is written, and not in prose or regular expressions', () => {
    const found = (text: string) => sqlIn('x.ts', text).map((s) => s.what);
    expect(found("await s.query('delete from meta where key = ?', [k]);")).toEqual(['runs SQL (.query)', 'SQL text']);
    expect(found('const q = `select ${cols} from ${table} where inst = ?`;')).toEqual(['SQL text']);
    expect(found("const t = ' on conflict (inst, month) do update set n = excluded.n';")).toEqual(['SQL text']);
    expect(found("const t = ' order by month desc limit 1';")).toEqual(['SQL text']);
    expect(found("db.selectFrom('api_keys').selectAll().execute();")).toEqual(['runs SQL (.selectFrom)']);
    expect(found("import { sql } from 'kysely';\nconst a = sql`select 1`;")).toEqual([
      "imports Kysely's sql",
      "runs SQL (Kysely's sql tag)",
    ]);
    expect(found('// select id from instruments\nconst m = /^update (\\w+) set/.exec(line);')).toEqual([]);
    expect(found("throw new Error('select an indicator from the list, then update the page');")).toEqual([]);
    expect(found("import type { Kysely } from 'kysely';")).toEqual([]);
  });
});
