import { describe, expect, it } from 'vitest';
import { html, seg, trusted } from '../../src/console/html.js';

describe('the console templates escape every interpolated string', () => {
  const cases: [string, string, RegExp][] = [
    ['a script element', '<script>alert(1)</script>', /^&#60;script&#62;alert\(1\)&#60;\/script&#62;$/],
    ['an attribute break-out', '" onmouseover="x', /^&#34; onmouseover=&#34;x$/],
    ['a single-quoted break-out', "' autofocus onfocus='x", /^&#39; autofocus onfocus=&#39;x$/],
    ['an entity', '&lt;b&gt;', /^&#38;lt;b&#38;gt;$/],
    ['a right-to-left override', 'abc\u202Edef', /^abc\\u202edef$/],
    ['an isolate', '\u2066x\u2069', /^\\u2066x\\u2069$/],
    ['a terminal escape and a bell', '\u001b[2J\u0007', /^\\x1b\[2J\\x07$/],
    ['a NUL', 'a\u0000b', /^a\\x00b$/],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(html`${input}`.text).toMatch(expected);
    expect(html`<p title="${input}">`.text).not.toMatch(/title="[^"]*"[^>]/);
  });

  it('keeps trusted markup and nested templates as markup, and drops absent values', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${[trusted('<br>'), trusted('<hr>')]}${undefined}${false}${null}</p>`.text).toBe(
      '<p><b>&#60;i&#62;</b><br><hr></p>',
    );
  });

  it('percent-encodes a path segment, so a slug cannot add a path or a scheme', () => {
    expect(seg('../admin?x=javascript:1')).toBe('..%2Fadmin%3Fx%3Djavascript%3A1');
  });
});
