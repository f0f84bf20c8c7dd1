import { useEffect, useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { qrPngDataUrl } from './qr.ts'
import './qrcode.css'

interface QrCodeProps {
  value: string
  /** Says what the code opens, for screen readers. */
  alt: string
  size?: number
}

/** A QR code image of `value`, drawn once the QR library has loaded. */
export function QrCode({ value, alt, size = 320 }: QrCodeProps) {
  const [state, setState] = useState<{ value: string; url: string | null; failed: boolean }>({
    value,
    url: null,
    failed: false,
  })
  useEffect(() => {
    let live = true
    qrPngDataUrl(value, size).then(
      (url) => live && setState({ value, url, failed: false }),
      () => live && setState({ value, url: null, failed: true }),
    )
    return () => {
      live = false
    }
  }, [value, size])

  if (state.failed) return <Alert tone="error" title="The QR code couldn't be drawn. Please try again." />
  if (!state.url || state.value !== value) {
    return (
      <div className="qr-code qr-code--loading" style={{ width: size, height: size }}>
        <Spinner label="Drawing QR code…" />
      </div>
    )
  }
  return <img className="qr-code" src={state.url} width={size} height={size} alt={alt} />
}
