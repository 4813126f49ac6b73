/**
 * An XML check that is not ours: Python's xml.etree (python3 is installed by the test command,
 * scripts/ensure-system-packages.sh) parses an SVG and gives back what a reader of it finds.
 */
import { execFileSync } from "node:child_process";

const READER = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
ns = "{http://www.w3.org/2000/svg}"
print(json.dumps({
  "root": root.tag,
  "viewBox": root.get("viewBox"),
  "title": root.findtext(ns + "title"),
  "titles": [t.text or "" for t in root.iter(ns + "title")],
  "texts": ["".join(t.itertext()) for t in root.iter(ns + "text")],
}))
`;

export interface ParsedSvg {
  root: string;
  viewBox: string | null;
  /** The document's own <title>. */
  title: string | null;
  /** Every <title>, the document's first, as a reader gets them (entities resolved). */
  titles: string[];
  texts: string[];
}

/** Parses the SVG as XML, throwing with Python's message where it is not well-formed. */
export function parseSvg(svg: string): ParsedSvg {
  return JSON.parse(execFileSync("python3", ["-c", READER], { input: svg, encoding: "utf8" })) as ParsedSvg;
}
