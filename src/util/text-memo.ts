/**
 * Remembers a pure function's answers by their input text, within a budget of characters. A run masks the same
 * texts over and over (every request's header names and values, a catalog fetched by each check that reads it):
 * each distinct text is then worked out once. Past the budget it starts afresh: memory stays bounded.
 */
export class TextMemo<T> {
  private readonly answers = new Map<string, T>();
  private held = 0;

  constructor(
    private readonly compute: (text: string) => T,
    /** Characters of input kept at most; a longer single text is computed and not kept. */
    private readonly budget = 4_000_000,
  ) {}

  get(text: string): T {
    const known = this.answers.get(text);
    if (known !== undefined) return known;
    const answer = this.compute(text);
    if (text.length > this.budget / 16) return answer;
    if (this.held + text.length > this.budget) {
      this.answers.clear();
      this.held = 0;
    }
    this.answers.set(text, answer);
    this.held += text.length;
    return answer;
  }
}
