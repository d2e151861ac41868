import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withBlock } from './blocks.js';
import { BLOCKS, type GeneratedBlock } from './pages.js';

/** A page as it is on disk and as the generator would write it, or what stops the generator. */
export interface PageState {
  page: string;
  current: string;
  wanted: string;
  /** The blocks whose text differs from their source's rendering. */
  stale: string[];
  problems: string[];
}

/** Every page with generated blocks, rendered from today's sources (nothing written). */
export async function renderPages(root: string, blocks: readonly GeneratedBlock[] = BLOCKS): Promise<PageState[]> {
  const pages = [...new Set(blocks.map((b) => b.page))];
  return Promise.all(
    pages.map(async (page) => {
      const current = await readFile(join(root, page), 'utf8').catch(() => undefined);
      const state: PageState = { page, current: current ?? '', wanted: current ?? '', stale: [], problems: [] };
      if (current === undefined) state.problems.push('the page does not exist');
      for (const block of blocks.filter((b) => b.page === page && current !== undefined)) {
        const placed = withBlock(state.wanted, block.name, block.source, await block.render());
        if (!placed.ok) {
          state.problems.push(placed.problem);
          continue;
        }
        if (placed.text !== state.wanted) state.stale.push(`${block.name} (from ${block.source})`);
        state.wanted = placed.text;
      }
      return state;
    }),
  );
}
