/** What a badge says: the label on the left, the message on the right, and the message's colour. */
export interface BadgeText {
  label: string;
  message: string;
  color: string;
}

/** Approximate text width of 11px Verdana (the flat style's font): narrow and wide glyphs apart. */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[il.,:;|!' ]/.test(ch) ? 3.5 : /[mwMW]/.test(ch) ? 10 : /[A-Z0-9]/.test(ch) ? 7.5 : 6.5;
  return Math.round(w);
}

const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** A badge in the familiar flat style (shields.io's "flat": rounded, a light gradient, text with a shadow). */
export function flatBadge({ label, message, color }: BadgeText): string {
  const [lw, mw] = [textWidth(label) + 10, textWidth(message) + 10];
  const total = lw + mw;
  const [l, m] = [escapeXml(label), escapeXml(message)];
  const text = (x: number, s: string): string =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${s}</text><text x="${x}" y="14">${s}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${l}: ${m}">`,
    `<title>${l}: ${m}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><rect width="${total}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    text(lw / 2, l),
    text(lw + mw / 2, m),
    '</g></svg>',
  ].join('');
}
