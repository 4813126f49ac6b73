/**
 * The few pieces of SVG text the map is written with. Everything here is plain string work, with no DOM and no Node
 * module, so that the same text comes out of Node and of a browser.
 */

/** Characters XML 1.0 does not allow in a document at all: control characters but tab and newlines, lone surrogates. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- finding the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Whether a text holds anything `xml` would change: most of a map's texts do not, and are returned as they are. */
// eslint-disable-next-line no-control-regex -- the control characters XML forbids are among what this looks for
const NEEDS_ESCAPING = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * Text made safe for an element's content or a quoted attribute: the five markup characters as entities, and any
 * character XML cannot hold (a set-up file may name an army with anything) as U+FFFD.
 */
export function xml(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** A coordinate or length: at most two decimals, no trailing zeros, never "-0", so that the output is stable. */
export function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

/** Points with a comma between thousands ("3,250"), the same in every locale. */
export function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** An element with its attributes in the order given, and content (already escaped) or none. */
export function element(name: string, attributes: Readonly<Record<string, string | number>>, content?: string): string {
  // A plain loop: a large map writes tens of thousands of attributes, and this is where its time goes.
  let attrs = "";
  for (const key in attributes) {
    const value = attributes[key]!;
    attrs += ` ${key}="${typeof value === "number" ? num(value) : xml(value)}"`;
  }
  return content === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${content}</${name}>`;
}

/** The accessible name of the element it opens: a <title> child, escaped. */
export function title(text: string): string {
  return `<title>${xml(text)}</title>`;
}

/** A <g> of elements, in the order given, one a line: a golden file's diff then shows what changed. */
export function group(attributes: Readonly<Record<string, string | number>>, children: readonly string[]): string {
  return element("g", attributes, `\n${children.map((child) => `${child}\n`).join("")}`);
}

/**
 * A text broken between words into at most `lines` lines of at most `chars` characters (whole code points), or
 * undefined where it does not fit so (a word longer than a line, or more lines needed).
 */
export function wrap(text: string, chars: number, lines: number): string[] | undefined {
  const wrapped: string[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const last = wrapped.at(-1);
    if (last !== undefined && Array.from(`${last} ${word}`).length <= chars)
      wrapped[wrapped.length - 1] = `${last} ${word}`;
    else if (Array.from(word).length <= chars) wrapped.push(word);
    else return undefined;
  }
  return wrapped.length <= lines ? wrapped : undefined;
}

/** A text cut to at most `chars` characters (whole code points), with an ellipsis where it was cut. */
export function clip(text: string, chars: number): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= chars) return text;
  return `${codePoints.slice(0, Math.max(chars - 1, 0)).join("")}\u2026`;
}
