/** @jsxImportSource preact */
/**
 * A self-contained badge in the flat style README badges share (20 px high, Verdana 11 px, a grey
 * label beside a coloured message): no script, no link, no external reference, drawn with preact,
 * which escapes every text and attribute value.
 */
import { renderXml, xmlChars } from "../../http/xml-text";

export interface Badge {
  label: string;
  message: string;
  /** A `#rrggbb` colour of the message's side. */
  color: string;
}

/** Widths (px at 11 px Verdana) of the narrower and wider characters; others take DEFAULT_WIDTH. */
const WIDTHS: Array<[RegExp, number]> = [
  [/[ijl.,:;!|'`]/, 3.5],
  [/[fIrt()[\]{} /\\-]/, 4.6],
  [/[mwMW@%]/, 10.5],
  [/[A-Z#&]/, 7.7],
  [/[0-9a-z$*+<=>?^_~"]/, 6.9],
];
const DEFAULT_WIDTH = 11;
const PADDING = 10;

/** The text's width in Verdana 11 px, near enough for `textLength` to fit it without visible squeeze. */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDTHS.find(([pattern]) => pattern.test(char))?.[1] ?? DEFAULT_WIDTH;
  return Math.round(width);
}

/** One side's two texts (shadow and face), in tenths of a pixel as the flat style writes them. */
function Side({ text, x, width }: { text: string; x: number; width: number }) {
  const centre = Math.round((x + width / 2) * 10);
  const length = (width - PADDING) * 10;
  const shown = xmlChars(text);
  return (
    <>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG text is not focusable; the shadow is hidden from readers */}
      <text
        aria-hidden="true"
        x={centre}
        y="150"
        fill="#010101"
        fill-opacity=".3"
        transform="scale(.1)"
        textLength={length}
      >
        {shown}
      </text>
      <text x={centre} y="140" transform="scale(.1)" fill="#fff" textLength={length}>
        {shown}
      </text>
    </>
  );
}

/** The badge as an SVG document. */
export function badgeSvg({ label, message, color }: Badge): string {
  const left = textWidth(label) + PADDING;
  const right = textWidth(message) + PADDING;
  const width = left + right;
  const title = xmlChars(`${label}: ${message}`);
  const fill = /^#[0-9a-f]{6}$/i.test(color) ? color : "#9f9f9f";
  return renderXml(
    <svg xmlns="http://www.w3.org/2000/svg" width={width} height="20" role="img" aria-label={title}>
      <title>{title}</title>
      <linearGradient id="s" x2="0" y2="100%">
        <stop offset="0" stop-color="#bbb" stop-opacity=".1" />
        <stop offset="1" stop-opacity=".1" />
      </linearGradient>
      <clipPath id="r">
        <rect width={width} height="20" rx="3" fill="#fff" />
      </clipPath>
      <g clip-path="url(#r)">
        <rect width={left} height="20" fill="#555" />
        <rect x={left} width={right} height="20" fill={fill} />
        <rect width={width} height="20" fill="url(#s)" />
      </g>
      <g
        fill="#fff"
        text-anchor="middle"
        font-family="Verdana,Geneva,DejaVu Sans,sans-serif"
        text-rendering="geometricPrecision"
        font-size="110"
      >
        <Side text={label} x={0} width={left} />
        <Side text={message} x={left} width={right} />
      </g>
    </svg>,
  );
}
