import { access, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Transpile an entry file and everything it imports relatively into `outDir` (same layout, .js), so a
 * test can run TypeScript sources in a child process without depending on a prior `npm run build`.
 */
export async function transpileClosure(root: string, entry: string, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
  const seen = new Set<string>();
  const queue = [resolve(root, entry)];
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    if (file.endsWith('.js')) {
      // Generated JavaScript (the precompiled validators) is copied as it is.
      const target = join(outDir, relative(root, file));
      await mkdir(dirname(target), { recursive: true });
      await copyFile(file, target);
      continue;
    }
    const source = await readFile(file, 'utf8');
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    }).outputText;
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, output);
    // Follow value imports only (static and dynamic): `import type` is erased and may point at files not needed at run time.
    for (const match of output.matchAll(/(?:from\s+|import\()'(\.{1,2}\/[^']+)\.js'/g)) {
      const spec = match[1];
      if (spec === undefined) continue;
      const typescriptFile = resolve(dirname(file), `${spec}.ts`);
      queue.push((await exists(typescriptFile)) ? typescriptFile : resolve(dirname(file), `${spec}.js`));
    }
  }
  return join(outDir, relative(root, resolve(root, entry))).replace(/\.ts$/, '.js');
}
