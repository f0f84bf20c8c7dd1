import type { DoorSignText } from '@porchlight/shared/rules/door-sign'
import PDFDocument from 'pdfkit'
import QRCode from 'qrcode'
import { DEJAVU, type Run, runsOf } from './fonts.ts'

/** Text Helvetica draws right: printable Latin-1 and the few Windows-1252 marks the sign uses. */
const helveticaCan = (text: string) => /^[\x20-\x7e\u00a0-\u00ff–—‘’“”•…€]*$/.test(text)

// US Letter in PDF points (1/72 in). Everything is placed by hand inside the margin, so nothing ever
// flows onto a second page.
const PAGE = { width: 612, height: 792 }
const MARGIN = 54
const CONTENT = PAGE.width - 2 * MARGIN
const INK = '#0f172a'
const MUTED = '#475569'
const SUBTLE = '#64748b'
const ACCENT = '#d97706'
const QR_LARGEST = 340

/** One Letter page: the brand, the address, the date and time, the QR code, who greets, and the call. */
export function drawDoorSign(sign: DoorSignText, url: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: `Open house · ${sign.street}`, Author: sign.brand, Subject: sign.call },
  })
  const done = collect(doc)
  doc.registerFont('Unicode', DEJAVU.regular)
  doc.registerFont('Unicode-Bold', DEJAVU.bold)

  drawBrand(doc, sign.brand)
  let y = MARGIN + 72
  y = centred(doc, sign.street, y, { font: 'Helvetica-Bold', size: 32, color: INK })
  y = centred(doc, sign.place, y + 4, { font: 'Helvetica', size: 18, color: MUTED })
  if (sign.date) y = centred(doc, sign.date, y + 18, { font: 'Helvetica-Bold', size: 22, color: INK })
  y = centred(doc, sign.time, y + 4, { font: 'Helvetica', size: 20, color: INK })

  // The call, who greets, and the address the code opens sit at the foot; the code takes what is left.
  const foot = PAGE.height - MARGIN
  const urlHeight = measure(doc, url, { font: 'Helvetica', size: 9 })
  const brokerageTop = foot - urlHeight - 10 - (sign.brokerage ? 16 : 0)
  const agentTop = brokerageTop - 20
  const callTop = agentTop - 8 - 30
  const room = callTop - 16 - (y + 20)
  const qrSize = Math.min(QR_LARGEST, room)
  drawQr(doc, url, (PAGE.width - qrSize) / 2, y + 20 + (room - qrSize) / 2, qrSize)
  centred(doc, sign.call, callTop, { font: 'Helvetica-Bold', size: 26, color: INK })
  centred(doc, `Your host: ${sign.agentName}`, agentTop, { font: 'Helvetica', size: 15, color: MUTED })
  if (sign.brokerage)
    centred(doc, sign.brokerage, brokerageTop, { font: 'Helvetica', size: 12, color: MUTED })
  centred(doc, url, foot - urlHeight, { font: 'Helvetica', size: 9, color: SUBTLE })

  doc.end()
  return done
}

interface TextStyle {
  font: string
  size: number
  color?: string
}

/** Helvetica where it draws every letter (the sign looks as it always did), DejaVu Sans otherwise. */
const fontFor = (text: string, font: string) =>
  helveticaCan(text) ? font : font.endsWith('-Bold') ? 'Unicode-Bold' : 'Unicode'

/**
 * How the line is drawn: Helvetica, or DejaVu Sans alone (both wrap as text does), or, for a line that
 * needs another font (CJK, emoji) or runs right to left (Arabic, Hebrew), its runs side by side.
 */
function runsFor(text: string, style: TextStyle): Run[] | null {
  if (helveticaCan(text)) return null
  const runs = runsOf(text, style.font.endsWith('-Bold'))
  const dejavu = style.font.endsWith('-Bold') ? DEJAVU.bold : DEJAVU.regular
  return runs.length === 1 && runs[0]?.file === dejavu && !runs[0].rtl ? null : runs
}

/** The runs on one line: the size shrinks (to half at most) until they fit the width. */
function fitRuns(doc: PDFKit.PDFDocument, runs: Run[], size: number): { size: number; width: number } {
  const widthAt = (s: number) =>
    runs.reduce((sum, r) => sum + doc.font(r.file).fontSize(s).widthOfString(r.text), 0)
  let fitted = size
  while (widthAt(fitted) > CONTENT && fitted > size / 2) fitted -= 1
  return { size: fitted, width: widthAt(fitted) }
}

function measure(doc: PDFKit.PDFDocument, text: string, style: TextStyle): number {
  const runs = runsFor(text, style)
  if (runs)
    return doc
      .font(runs[0]?.file ?? 'Unicode')
      .fontSize(fitRuns(doc, runs, style.size).size)
      .currentLineHeight(true)
  return doc
    .font(fontFor(text, style.font))
    .fontSize(style.size)
    .heightOfString(text, { width: CONTENT, align: 'center' })
}

/**
 * A right-to-left run, word by word from its left edge (the last word first): fontkit shapes each word
 * and lays its letters out from the right, and the gaps between words stay gaps, so a reader of the
 * PDF's text (pdf.js among them) puts the words back in reading order with spaces between.
 */
function drawRightToLeft(doc: PDFKit.PDFDocument, text: string, left: number, y: number) {
  let x = left
  for (const word of text.split(/( )/).reverse()) {
    if (word !== ' ' && word !== '') doc.text(word, x, y, { lineBreak: false })
    x += doc.widthOfString(word)
  }
}

/** Centred text from `y`; answers where the next line starts. */
function centred(doc: PDFKit.PDFDocument, text: string, y: number, style: TextStyle): number {
  const height = measure(doc, text, style)
  const runs = runsFor(text, style)
  doc.fillColor(style.color ?? INK)
  if (!runs) {
    doc.text(text, MARGIN, y, { width: CONTENT, align: 'center', lineBreak: true })
    return y + height
  }
  const { size, width } = fitRuns(doc, runs, style.size)
  let x = MARGIN + (CONTENT - width) / 2
  for (const run of runs) {
    const runWidth = doc.font(run.file).fontSize(size).widthOfString(run.text)
    if (run.rtl) drawRightToLeft(doc, run.text, x, y)
    else doc.text(run.text, x, y, { lineBreak: false })
    x += runWidth
  }
  return y + height
}

/** The app's mark (a house with its porch light) and the name, as in the site header. */
function drawBrand(doc: PDFKit.PDFDocument, brand: string) {
  const size = 36
  const scale = size / 32
  doc.save().translate(MARGIN, MARGIN).scale(scale)
  doc.roundedRect(0, 0, 32, 32, 8).fill(INK)
  doc.path('M8 15.5 16 8l8 7.5V24H8z').lineWidth(2).lineJoin('round').stroke('#f8fafc')
  doc.circle(16, 18.5, 3).fill('#f59e0b')
  doc.restore()
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .fillColor(INK)
    .text(brand, MARGIN + size + 12, MARGIN + 8, { lineBreak: false })
  doc
    .font('Helvetica-Bold')
    .fontSize(12)
    .fillColor(ACCENT)
    .text('OPEN HOUSE', MARGIN, MARGIN + 13, { width: CONTENT, align: 'right', characterSpacing: 2 })
  doc
    .moveTo(MARGIN, MARGIN + size + 14)
    .lineTo(PAGE.width - MARGIN, MARGIN + size + 14)
    .lineWidth(3)
    .stroke(ACCENT)
}

/**
 * The code as vector squares (sharp at any print size), with the same error correction as the web's
 * QR code: a medium level survives a smudged print-out on a front door.
 */
function drawQr(doc: PDFKit.PDFDocument, url: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' })
  const quiet = 2
  const cell = size / (modules.size + 2 * quiet)
  doc.rect(x, y, size, size).fill('#ffffff')
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell, cell)
    }
  }
  doc.fill('#000000')
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
}
