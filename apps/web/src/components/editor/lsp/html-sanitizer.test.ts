// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "./html-sanitizer";

/** The formatting a hover may keep; everything else must be gone from the answer. */
const FORMATTING = new Set(
  "p pre code span div em strong b i del ul ol li br hr h1 h2 h3 h4 h5 h6 blockquote table thead tbody tr th td".split(
    " ",
  ),
);

/**
 * What the browser builds from `html` when it is inserted into the page: every element's name and
 * attribute names, read from a fresh parse, so a payload that only mutates on reparsing shows.
 */
function whatThePageGets(html: string): { elements: string[]; attributes: string[] } {
  const body = new DOMParser().parseFromString(html, "text/html").body;
  const all = [...body.querySelectorAll("*")];
  return {
    elements: all.map((element) => element.localName),
    attributes: all.flatMap((element) => [...element.attributes].map((attribute) => attribute.name)),
  };
}

/** Sanitised once and again after a reparse (mutation XSS): only formatting and `class` remain. */
function expectHarmless(hostile: string): string {
  const once = sanitizeHtml(hostile);
  for (const html of [once, sanitizeHtml(once)]) {
    const { elements, attributes } = whatThePageGets(html);
    for (const element of elements) expect(FORMATTING.has(element), `${element} in ${html}`).toBe(true);
    for (const attribute of attributes) expect(attribute, html).toBe("class");
  }
  return once;
}

describe("a language server's hover HTML shown in the editor", () => {
  it("keeps highlighted code and plain formatting as it came", () => {
    const html =
      '<p>Returns <strong>the</strong> <em>value</em></p><pre><code class="language-ts"><span class="tok-keyword">const</span> x</code></pre><ul><li>one</li></ul>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it("keeps tables, quotes and headings", () => {
    const html =
      "<h2>Args</h2><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><blockquote>q</blockquote>";
    expect(sanitizeHtml(html)).toBe(html);
  });

  it("removes scripts, styles and embedded documents with their content", () => {
    const html = expectHarmless(
      "a<script>alert(1)</script><style>*{display:none}</style><iframe src=//evil></iframe><object data=x>o</object><embed src=x><template><p>t</p></template><noscript>n</noscript>b",
    );
    expect(html).toBe("ab");
  });

  it("turns links, images, forms and unknown elements into their text", () => {
    const html = expectHarmless(
      '<a href="https://example.com">docs</a> <img src="data:image/png;base64,AA" alt="pic"><form action=/x><input value=v>field</form><marquee>m</marquee>',
    );
    expect(html).toBe("docs fieldm");
  });

  it("drops event handlers, styles and every attribute but class", () => {
    const html = expectHarmless(
      '<p onclick="alert(1)" style="position:fixed" id="x" data-x="1" class="doc">hi</p><span onmouseover=alert(1) title=t>s</span>',
    );
    expect(html).toBe('<p class="doc">hi</p><span>s</span>');
  });

  it("runs nothing from an image's error handler", () => {
    expect(expectHarmless("<img src=x onerror=alert(1)>text")).toBe("text");
  });

  it("runs nothing from a script inside SVG or MathML", () => {
    expectHarmless("<svg><script>alert(1)</script></svg>");
    expectHarmless('<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>');
    expectHarmless("<svg onload=alert(1)>");
    expectHarmless('<math><mi xlink:href="javascript:alert(1)">x</mi></math>');
  });

  it("keeps no javascript: link however it is spelled", () => {
    for (const hostile of [
      '<a href="javascript:alert(1)">x</a>',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
      '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
      '<a href=" java\tscript:alert(1)">x</a>',
      '<a href="jav&#x09;ascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
    ]) {
      expect(expectHarmless(hostile), hostile).toBe("x");
    }
  });

  it("stays harmless against payloads that change when the browser reparses them", () => {
    for (const hostile of [
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
      "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      "<math><mi><mglyph><svg><mtext><textarea><path id=</textarea><img onerror=alert(1) src=1>",
      '<table><caption><svg><title><a title="</title><img src onerror=alert(1)>"></a></title></svg></caption></table>',
      '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
      "<!--<img src=x onerror=alert(1)>-->",
      '<p title="-->"><img src=x onerror=alert(1)>',
    ]) {
      expectHarmless(hostile);
    }
  });
});
