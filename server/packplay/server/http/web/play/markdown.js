// Markdown to HTML for the rules reference and the protocol guide, with marked (a
// copy of its ES module build is in vendor/, pinned by tests/browser/package.json).
// Headings get the anchors the reference promises: `### DN-3` is `#dn-3`.

import { Marked } from "./vendor/marked.esm.js";

const marked = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }) {
      const id = anchorOf(text);
      return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** The anchor of a heading: its first word for a ruling (`DN-3`), else its words joined by hyphens. */
export function anchorOf(text) {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
}

/** The HTML of a trusted Markdown text (the server's own documents). */
export function renderMarkdown(text) {
  return marked.parse(text);
}
