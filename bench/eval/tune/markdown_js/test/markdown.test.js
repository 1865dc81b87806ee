import test from 'node:test';
import assert from 'node:assert/strict';
import { render, renderInline, tableOfContents, slugify } from '../src/index.js';

const README = `# tinymark

A *small* Markdown renderer.

## Install ##

    npm install tinymark

## Usage

1. import it
2. call \`render\`

## Usage
`;

test('inline markup', () => {
  assert.equal(renderInline('a **bold** and *soft* [link](https://x.io)'),
    'a <strong>bold</strong> and <em>soft</em> <a href="https://x.io">link</a>');
  assert.equal(renderInline('`a < b` and \\*not em\\*'), '<code>a &lt; b</code> and *not em*');
});

test('slugs', () => {
  assert.equal(slugify('Install & run'), 'install--run');
});

test('headings', () => {
  assert.equal(render('## Install'), '<h2 id="install">Install</h2>');
  assert.equal(render('### Getting *started* ###'), '<h3 id="getting-started">Getting <em>started</em></h3>');
  assert.equal(render('#hashtag'), '<p>#hashtag</p>');
});

test('paragraphs, lists and quotes', () => {
  assert.equal(render('one\ntwo\n\nthree'), '<p>one two</p>\n<p>three</p>');
  assert.equal(render('- a\n- b'), '<ul><li>a</li><li>b</li></ul>');
  assert.equal(render('3. c\n4. d'), '<ol start="3"><li>c</li><li>d</li></ol>');
  assert.equal(render('> said\n> twice'), '<blockquote><p>said twice</p></blockquote>');
});

test('fenced code is escaped and keeps its language', () => {
  assert.equal(render('```js\nif (a < b) {}\n```'), '<pre><code class="language-js">if (a &lt; b) {}</code></pre>');
});

test('table of contents', () => {
  assert.deepEqual(tableOfContents(README), [
    { level: 1, text: 'tinymark', id: 'tinymark' },
    { level: 2, text: 'Install', id: 'install' },
    { level: 2, text: 'Usage', id: 'usage' },
    { level: 2, text: 'Usage', id: 'usage-1' },
  ]);
});
