export { render, tableOfContents } from './render.js';
export { renderInline } from './inline.js';
export { parseBlocks } from './blocks.js';
export { escapeHtml, slugify } from './util.js';
