import jsQR from 'jsqr'
import type { Locator } from 'playwright-core'
import { PNG } from 'pngjs'

/** The text a PNG image's QR code holds, or null when no code can be read in it. */
export function decodeQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png)
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null
}

/** What a phone pointed at the element would read: its screenshot's QR code, or null. */
export async function decodeQrOn(element: Locator): Promise<string | null> {
  return decodeQrPng(await element.screenshot())
}
