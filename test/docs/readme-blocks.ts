/**
 * The README as test/docs/readme.test.ts reads it: its ```sh blocks as shell commands, its sample outputs and tables.
 * Only what the README uses is understood: `&&` chains of `|` pipelines, `#` comments, `\` line continuations.
 */

export interface ReadmeCommand {
  /** The command as written (continuations joined, the trailing comment removed). */
  text: string;
  /** 1-based line in README.md. */
  line: number;
}

export interface ShBlock {
  /** The `## ` section the block is in: a reader's shell lives as long as one section. */
  section: string;
  line: number;
  commands: ReadmeCommand[];
}

/** Each character of `text` with whether it is inside single or double quotes (a backslash escapes outside '…'). */
function quotedMask(text: string): boolean[] {
  const mask: boolean[] = [];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quote !== "'") {
      mask.push(quote !== undefined, quote !== undefined);
      i++;
      continue;
    }
    if (quote === undefined && (c === "'" || c === '"')) {
      quote = c;
      mask.push(true);
    } else if (c === quote) {
      quote = undefined;
      mask.push(true);
    } else mask.push(quote !== undefined);
  }
  return mask;
}

/** The command without a `#` comment (a `#` outside quotes that starts a word). */
export function withoutComment(text: string): string {
  const quoted = quotedMask(text);
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '#' && !quoted[i] && (i === 0 || /\s/.test(text[i - 1] ?? ''))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

/** Splits at `separator` where it stands outside quotes. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const quoted = quotedMask(text);
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!quoted[i] && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i).trim());
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** `a | b && c` → [['a', 'b'], ['c']]: an `&&` chain of pipelines. */
export function chainOf(command: string): string[][] {
  return splitOutsideQuotes(command, '&&').map((pipeline) => splitOutsideQuotes(pipeline, '|'));
}

/** Shell syntax the test does not interpret (a command using it fails the test instead of running half-understood). */
export function unsupportedSyntax(command: string): string | undefined {
  const quoted = quotedMask(command);
  const bare = [...command].map((c, i) => (quoted[i] ? ' ' : c)).join('');
  const found = [/;/, /\|\|/, /(^|[^&])&($|[^&])/, /\$\(/, /`/, /[<>]/].find((pattern) => pattern.test(bare));
  return found ? `shell syntax ${found.source} outside quotes` : undefined;
}

/** Every ```sh block, with its commands and the section it is in. */
export function shBlocks(markdown: string): ShBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const open = /^(\s*)```sh\s*$/.exec(line);
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const block: ShBlock = { section, line: i + 1, commands: [] };
    let pending: ReadmeCommand | undefined;
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ''); i++) {
      const text = (lines[i] ?? '').slice(indent);
      const joined = pending ? { text: `${pending.text} ${text.trim()}`, line: pending.line } : { text, line: i + 1 };
      if (joined.text.endsWith('\\')) {
        pending = { text: joined.text.slice(0, -1).trimEnd(), line: joined.line };
        continue;
      }
      pending = undefined;
      const command = withoutComment(joined.text).trim();
      if (command) block.commands.push({ text: command, line: joined.line });
    }
    blocks.push(block);
  }
  return blocks;
}

/** The body of the first fenced block of `language` after the first occurrence of `marker`. */
export function fencedBlockAfter(markdown: string, marker: string, language: string): string {
  const at = markdown.indexOf(marker);
  if (at < 0) throw new Error(`README.md no longer contains ${JSON.stringify(marker)}`);
  const open = markdown.indexOf(`\`\`\`${language}\n`, at);
  if (open < 0) throw new Error(`README.md has no \`\`\`${language} block after ${JSON.stringify(marker)}`);
  const start = open + language.length + 4;
  return markdown.slice(start, markdown.indexOf('\n```', start));
}

/** The rows of the first Markdown table after `marker` (lines starting with `|`, header and separator included). */
export function tableAfter(markdown: string, marker: string): string[] {
  const at = markdown.indexOf(marker);
  if (at < 0) throw new Error(`README.md no longer contains ${JSON.stringify(marker)}`);
  const lines = markdown.slice(at).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  return lines.slice(first, end < 0 ? undefined : end);
}

/** The cells of a table row (`\|` is a pipe inside a cell). */
export function cellsOf(row: string): string[] {
  return row
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());
}

/** Ports and durations vary between runs; the README shows one run's. */
export const normaliseOutputLine = (line: string): string =>
  line
    .trimEnd()
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\(\d+(?:\.\d+)? m?s\)/g, '(DURATION)');

function linePattern(sampleLine: string): RegExp {
  const parts = normaliseOutputLine(sampleLine)
    .split('…')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/**
 * Where a README sample stops matching the output, or undefined when it matches. A line that is only `…` stands for
 * any number of lines left out; `…` within a line for any text; other consecutive lines must be consecutive output.
 */
export function sampleMismatch(sample: string, output: string): string | undefined {
  const produced = output.split('\n').map(normaliseOutputLine);
  const groups: string[][] = [[]];
  for (const line of sample.split('\n')) {
    if (line.trim() === '…') groups.push([]);
    else groups.at(-1)?.push(line);
  }
  let from = 0;
  for (const group of groups.filter((g) => g.length > 0)) {
    const patterns = group.map(linePattern);
    let at = -1;
    for (let i = from; i + patterns.length <= produced.length && at < 0; i++) {
      if (patterns.every((p, k) => p.test(produced[i + k] ?? ''))) at = i;
    }
    if (at < 0) {
      // Name the first line of the group that is not in the output at all, else the group as a whole.
      const missing = group.find((_, k) => !produced.slice(from).some((l) => patterns[k]?.test(l)));
      return missing !== undefined
        ? `not printed: ${missing}`
        : `not printed as consecutive lines:\n${group.join('\n')}`;
    }
    from = at + patterns.length;
  }
  return undefined;
}
