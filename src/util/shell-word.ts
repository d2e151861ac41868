/** A value as one POSIX shell word: bare when it is plain, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A command line as a person pastes it into a shell. */
export const shellLine = (words: readonly string[]): string => words.map(shellWord).join(' ');
