/**
 * QR images from the `qrcode` package, loaded on first use only: no page pays for it until a QR code
 * is shown. A medium error correction level survives a smudged print-out on a front door.
 */
async function library() {
  const module = await import('qrcode')
  return module.default
}

const options = { errorCorrectionLevel: 'M', margin: 2 } as const

export async function qrPngDataUrl(value: string, width = 320): Promise<string> {
  return (await library()).toDataURL(value, { ...options, width })
}

export async function qrSvg(value: string): Promise<string> {
  return (await library()).toString(value, { ...options, type: 'svg' })
}

/** A safe file name for a download from a title like an address. */
export function fileNameFor(title: string, extension: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
  return `${base || 'qr-code'}-qr.${extension}`
}

/** A base64 data: URL as a Blob, without fetch() (the page's CSP allows no data: connections). */
export function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', base64 = ''] = dataUrl.split(',')
  const type = /^data:([^;]+)/.exec(head)?.[1] ?? 'application/octet-stream'
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}
