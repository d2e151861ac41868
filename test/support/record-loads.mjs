// Records every module URL the ES module loader loads, one a line, into the file PROVCERT_LOAD_LOG names: preloaded
// with NODE_OPTIONS=--import, it registers itself as the loader's hooks (run on the hooks thread).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

export async function load(url, context, next) {
  appendFileSync(process.env.PROVCERT_LOAD_LOG, `${url}\n`);
  return next(url, context);
}
