// Inline markup: `code`, **strong**, *emphasis*, [links](url) and backslash escapes.
import { escapeHtml } from './util.js';

const PATTERNS = [
  [/^\\([\\`*_[\]()#+\-.!])/, (m) => escapeHtml(m[1])],
  [/^(`+)([\s\S]*?[^`])\1(?!`)/, (m) => `<code>${escapeHtml(m[2].trim())}</code>`],
  [/^\*\*(?=\S)([\s\S]*?\S)\*\*/, (m) => `<strong>${renderInline(m[1])}</strong>`],
  [/^\*(?=\S)([\s\S]*?\S)\*/, (m) => `<em>${renderInline(m[1])}</em>`],
  [/^\[([^\]]+)\]\(([^)\s]+)\)/, (m) => `<a href="${escapeHtml(m[2])}">${renderInline(m[1])}</a>`],
];

export function renderInline(text) {
  let out = '';
  let rest = text;
  outer: while (rest.length) {
    for (const [pattern, render] of PATTERNS) {
      const match = pattern.exec(rest);
      if (match) {
        out += render(match);
        rest = rest.slice(match[0].length);
        continue outer;
      }
    }
    out += escapeHtml(rest[0]);
    rest = rest.slice(1);
  }
  return out;
}
