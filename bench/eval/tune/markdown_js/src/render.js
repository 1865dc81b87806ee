// Blocks to HTML, and a table of contents from the headings.
import { parseBlocks } from './blocks.js';
import { renderInline } from './inline.js';
import { escapeHtml, uniqueSlugger } from './util.js';

function renderBlock(block, slug) {
  switch (block.type) {
    case 'heading':
      return `<h${block.level} id="${slug(block.text)}">${renderInline(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${renderInline(block.text)}</p>`;
    case 'quote':
      return `<blockquote><p>${renderInline(block.text)}</p></blockquote>`;
    case 'code': {
      const cls = block.lang ? ` class="language-${block.lang}"` : '';
      return `<pre><code${cls}>${escapeHtml(block.text)}</code></pre>`;
    }
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
      const items = block.items.map((item) => `<li>${renderInline(item)}</li>`).join('');
      return `<${tag}${start}>${items}</${tag}>`;
    }
    default:
      throw new Error(`unknown block ${block.type}`);
  }
}

export function render(source) {
  const slug = uniqueSlugger();
  return parseBlocks(source).map((block) => renderBlock(block, slug)).join('\n');
}

export function tableOfContents(source, maxLevel = 3) {
  const slug = uniqueSlugger();
  return parseBlocks(source)
    .filter((block) => block.type === 'heading')
    .map((block) => ({ level: block.level, text: block.text, id: slug(block.text) }))
    .filter((entry) => entry.level <= maxLevel);
}
