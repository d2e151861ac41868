// Records every module URL the ES module loader loads, one a line, into the file PROVCERT_LOAD_LOG names: preloaded
// with NODE_OPTIONS=--import, it registers itself as the loader's hooks (run on the hooks thread). A CommonJS module
// loaded with require() (createRequire) passes no hook: those are written from the require cache as the process ends.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  register(import.meta.url);
  const required = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const urls = Object.keys(required).map((path) => `${pathToFileURL(path).href}\n`);
    appendFileSync(process.env.PROVCERT_LOAD_LOG, urls.join(''));
  });
}

export async function load(url, context, next) {
  appendFileSync(process.env.PROVCERT_LOAD_LOG, `${url}\n`);
  return next(url, context);
}
