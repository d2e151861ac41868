import { readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** More links than this in one path is a loop (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Where writing to `path` would really land: the path with every symlink resolved. For a file that does not exist
 * yet, the real path of its nearest existing ancestor with the rest appended; a dangling symlink is followed to where
 * it points, since writing through it creates its target. Synchronous: it runs once per path while options load.
 */
export function realWritePath(path: string, links = 0): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // Not there, or a dangling link: follow the link, else resolve the parent.
  }
  if (links < MAX_LINKS) {
    try {
      return realWritePath(resolve(dirname(absolute), readlinkSync(absolute)), links + 1);
    } catch {
      // Not a link.
    }
  }
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realWritePath(parent, links), basename(absolute));
}
