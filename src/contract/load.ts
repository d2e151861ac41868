import { resolve } from 'node:path';
import { ok, type Result } from '../util/result.js';
import { BUNDLED_SPEC_PATH } from './bundled-path.js';
import type { Contract } from './contract.js';
import type { SpecError } from './types.js';

/*
 * The bundled spec is served by validators generated at build time (precompiled.ts): no YAML parsing and no
 * ajv compilation at run time. Any other spec (`--spec`) is read, bundled and compiled here. The modules of
 * each path are imported only when that path is taken, so the precompiled path never loads yaml or ajv.
 */

/** Read, bundle and compile a spec file at run time, whatever it is; errors are values with a message for people. */
export async function compileSpecAtRunTime(specPath: string): Promise<Result<Contract, SpecError>> {
  const path = resolve(specPath);
  const [{ readBundledSpec }, { compileContract }] = await Promise.all([import('./bundle.js'), import('./compile.js')]);
  const bundled = await readBundledSpec(path);
  return bundled.ok ? compileContract(bundled.value, path) : bundled;
}

/** Load a contract: the precompiled one for the bundled spec (unless the spec changed since the build), else compile it. */
export async function tryLoadContract(specPath: string = BUNDLED_SPEC_PATH): Promise<Result<Contract, SpecError>> {
  const path = resolve(specPath);
  if (path === BUNDLED_SPEC_PATH) {
    const { loadPrecompiledContract } = await import('./precompiled.js');
    const precompiled = await loadPrecompiledContract();
    if (precompiled) return ok(precompiled);
  }
  return compileSpecAtRunTime(path);
}

const cache = new Map<string, Promise<Contract>>();

/** Load a contract once per path (validators compile once per process). Throws SpecLoadError. */
export function loadContract(specPath: string = BUNDLED_SPEC_PATH): Promise<Contract> {
  const key = resolve(specPath);
  let pending = cache.get(key);
  if (!pending) {
    pending = tryLoadContract(key).then((r) => {
      if (!r.ok) throw new SpecLoadError(r.error);
      return r.value;
    });
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

export class SpecLoadError extends Error {
  override readonly name = 'SpecLoadError';
  constructor(readonly detail: SpecError) {
    super(detail.message);
  }
}
