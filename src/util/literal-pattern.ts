/**
 * One regular expression matching any of many literal strings, built as a prefix tree
 * (`ab(?:c|d)` rather than `abc|abd`): a scan tries one branch per character instead of every
 * literal, so masking stays one fast pass however many secret forms there are.
 */
interface TrieNode {
  children: Map<string, TrieNode>;
  /** A match may end here. */
  end: boolean;
}

const node = (): TrieNode => ({ children: new Map(), end: false });

/** Letters and digits as they are, every other UTF-16 unit as `\uXXXX` (never a regex metacharacter). */
const escapeUnit = (unit: string): string =>
  /[A-Za-z0-9]/.test(unit) ? unit : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

function source(trie: TrieNode): string {
  const branches = [...trie.children].map(([unit, child]) => escapeUnit(unit) + source(child));
  if (branches.length === 0) return '';
  const group = branches.length === 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
  // Longer first: `?` is greedy, so the deepest literal that matches wins.
  if (!trie.end) return group;
  return branches.length === 1 && (branches[0] ?? '').length === 1 ? `${group}?` : `(?:${group})?`;
}

export class LiteralPattern {
  private readonly root = node();
  private size = 0;

  /** Adds `literal`; with `minLength`, every prefix of it at least that long matches too. */
  add(literal: string, minLength = literal.length): void {
    if (literal.length === 0) return;
    let at = this.root;
    for (let i = 0; i < literal.length; i++) {
      const unit = literal[i] ?? '';
      let next = at.children.get(unit);
      if (!next) {
        next = node();
        at.children.set(unit, next);
      }
      at = next;
      if (i + 1 >= minLength) at.end = true;
    }
    this.size++;
  }

  /** The global regex, or undefined when nothing was added. */
  compile(): RegExp | undefined {
    return this.size === 0 ? undefined : new RegExp(source(this.root), 'g');
  }
}
