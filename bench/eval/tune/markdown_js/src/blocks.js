// Split a document into blocks: headings, paragraphs, lists, fenced code and quotes.

const FENCE = /^(```|~~~)\s*([\w+-]*)\s*$/;
const LIST_ITEM = /^\s{0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;

// "## Install ##" -> { level: 2, text: "Install" }; null when the line is no heading.
export function headingOf(line) {
  const match = /^(#{1,6})(?:[ \t]+|$)/.exec(line);
  if (!match) return null;
  const text = line.slice(match[1].length).replace(/[ \t]+#+[ \t]*$/, '');
  return { level: match[1].length, text };
}

export function listItemOf(line) {
  const match = LIST_ITEM.exec(line);
  if (!match) return null;
  return { ordered: match[2] !== undefined, start: Number(match[2] || 1), text: match[3] };
}

export function parseBlocks(source) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks = [];
  let paragraph = null;
  const endParagraph = () => {
    if (paragraph) blocks.push({ type: 'paragraph', text: paragraph.join(' ') });
    paragraph = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      const body = [];
      while (++i < lines.length && !lines[i].startsWith(fence[1])) body.push(lines[i]);
      blocks.push({ type: 'code', lang: fence[2], text: body.join('\n') });
      continue;
    }
    if (!line.trim()) {
      endParagraph();
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      endParagraph();
      blocks.push({ type: 'heading', ...heading });
      continue;
    }
    const item = listItemOf(line);
    if (item) {
      endParagraph();
      const last = blocks[blocks.length - 1];
      if (last && last.type === 'list' && last.ordered === item.ordered) last.items.push(item.text);
      else blocks.push({ type: 'list', ordered: item.ordered, start: item.start, items: [item.text] });
      continue;
    }
    if (line.startsWith('>')) {
      endParagraph();
      const text = line.replace(/^>\s?/, '');
      const last = blocks[blocks.length - 1];
      if (last && last.type === 'quote') last.text += ` ${text}`;
      else blocks.push({ type: 'quote', text });
      continue;
    }
    (paragraph ||= []).push(line.trim());
  }
  endParagraph();
  return blocks;
}
