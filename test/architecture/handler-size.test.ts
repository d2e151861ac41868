import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';

/**
 * Handlers as modules (issue 31): where a newcomer adds a page or a route, no function is over 80 lines, so none
 * is a closure of handlers again (`createConsole` was 412 lines, `coreRouteHandlers` 172). Measured from the source
 * with the TypeScript parser: every function, method and arrow, from its first line to its last.
 */

const FOLDERS = ['src/console', 'src/server/core-routes'];
const MAX_LINES = 80;

interface Measured {
  where: string;
  lines: number;
}

/** Every function of a source text with its length in lines. */
function functionsIn(path: string, text: string): Measured[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      found.push({ where: `${path}:${first}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const functionsOf = (path: string): Measured[] => functionsIn(path, readFileSync(join(packageRoot, path), 'utf8'));

const sources = (folder: string): string[] =>
  readdirSync(join(packageRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${folder}/${f.split('\\').join('/')}`);

describe('handlers as modules', () => {
  it.each(FOLDERS)(`no function in %s is over ${MAX_LINES} lines`, (folder) => {
    const measured = sources(folder).flatMap(functionsOf);
    // The measure reads something: the folder's handlers are there to be measured.
    expect(measured.length).toBeGreaterThan(50);
    expect(measured.filter((m) => m.lines > MAX_LINES)).toEqual([]);
  });

  it('the measure sees a long function, also an arrow inside an object', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `    const v${i} = ${i};`).join('\n');
    const text = `export const routes = {\n  list: async () => {\n${body}\n  },\n};\n`;
    expect(functionsIn('x.ts', text)).toEqual([{ where: 'x.ts:2', lines: MAX_LINES + 2 }]);
  });
});
