import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import bidiFactory from 'bidi-js'
import * as fontkit from 'fontkit'

// Which font draws each piece of a line. PDF's Helvetica has only the Windows-1252 letters; DejaVu Sans
// adds Latin in full, Vietnamese, Cyrillic, Greek, Arabic and Hebrew; Noto Sans SC (CJK: Chinese, kana,
// many Hangul) and Noto Emoji (monochrome) draw what DejaVu has not. The Noto fonts come from their
// Fontsource packages, cut by Unicode range into small files: only the files a line needs are read,
// and pdfkit embeds only the glyphs used, so a sign with one Chinese name stays a few dozen kilobytes.

const require = createRequire(import.meta.url)

export const DEJAVU = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
}

interface Slice {
  ranges: Array<[number, number]>
  file: (bold: boolean) => string
}

/** A Fontsource package's slices: each file's Unicode ranges, from its unicode.json. */
function slices(pkg: string, weights: { regular: number; bold: number }): Slice[] {
  const dir = dirname(require.resolve(`${pkg}/index.css`))
  const family = pkg.split('/')[1]
  const unicode = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>
  return Object.entries(unicode).map(([key, list]) => {
    const slice = key.replace(/^\[(\d+)\]$/, '$1')
    return {
      ranges: list.split(',').map((r) => {
        const [from = '0', to] = r.trim().replace(/^U\+/i, '').split('-')
        return [Number.parseInt(from, 16), Number.parseInt(to ?? from, 16)] as [number, number]
      }),
      file: (bold) =>
        join(dir, 'files', `${family}-${slice}-${bold ? weights.bold : weights.regular}-normal.woff`),
    }
  })
}

let fallbacks: Slice[] | undefined
const fallbackSlices = () => {
  fallbacks ??= [
    ...slices('@fontsource/noto-sans-sc', { regular: 400, bold: 700 }),
    ...slices('@fontsource/noto-emoji', { regular: 400, bold: 700 }),
  ]
  return fallbacks
}

let dejavu: fontkit.Font | undefined
const dejavuHas = (cp: number) => {
  dejavu ??= fontkit.openSync(DEJAVU.regular) as fontkit.Font
  return dejavu.hasGlyphForCodePoint(cp)
}

/** Joiners and selectors a font may lack without the text losing anything. */
const invisible = (cp: number) => cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0x20e3

/** The font file for one grapheme: DejaVu Sans when it has every letter of it, else a Noto slice. */
function fileFor(grapheme: string, bold: boolean): string {
  const points = [...grapheme].map((c) => c.codePointAt(0) ?? 0)
  const needed = points.filter((cp) => !invisible(cp))
  if (needed.every(dejavuHas)) return bold ? DEJAVU.bold : DEJAVU.regular
  const covers = (s: Slice, cp: number) => s.ranges.some(([from, to]) => cp >= from && cp <= to)
  const slice =
    fallbackSlices().find((s) => points.every((cp) => covers(s, cp))) ??
    fallbackSlices().find((s) => needed.every((cp) => covers(s, cp)))
  return slice ? slice.file(bold) : bold ? DEJAVU.bold : DEJAVU.regular
}

/** A piece of a line drawn in one font, in the order it is drawn (left to right). */
export interface Run {
  text: string
  file: string
  /** Right to left (an odd bidi level): its words are read from the right. */
  rtl: boolean
}

const bidi = bidiFactory()
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * The line cut into runs of one font and one direction, in visual order (the Unicode Bidirectional
 * Algorithm). A right-to-left run keeps its logical order: fontkit shapes Arabic and lays it out from
 * the right itself.
 */
export function runsOf(text: string, bold: boolean): Run[] {
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text, 'ltr')
  const pieces: Array<Omit<Run, 'rtl'> & { level: number }> = []
  for (const { segment, index } of graphemes.segment(text)) {
    const level = levels[index] ?? paragraphs[0]?.level ?? 0
    const file = fileFor(segment, bold)
    const last = pieces.at(-1)
    if (last && last.level === level && last.file === file) last.text += segment
    else pieces.push({ text: segment, file, level })
  }
  // Reorder the runs: from the highest level down to the lowest odd one, reverse each sequence of runs
  // at that level or above (UAX #9, L2), runs taken whole.
  const highest = Math.max(0, ...pieces.map((p) => p.level))
  const lowestOdd = Math.min(...pieces.map((p) => (p.level % 2 === 1 ? p.level : highest + 1)))
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let i = 0; i < pieces.length; i++) {
      if ((pieces[i]?.level ?? 0) < level) continue
      let j = i
      while (j + 1 < pieces.length && (pieces[j + 1]?.level ?? 0) >= level) j++
      const reversed = pieces.slice(i, j + 1).reverse()
      pieces.splice(i, reversed.length, ...reversed)
      i = j
    }
  }
  return pieces.map(({ text, file, level }) => ({ text, file, rtl: level % 2 === 1 }))
}
