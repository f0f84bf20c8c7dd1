// The part of fontkit (pdfkit's font engine, which ships no types) that the door sign asks.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean
  }
  export function openSync(path: string): Font | { fonts: Font[] }
}
