import type { OpenHouseDetails } from '@porchlight/shared'
import { useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { ModalDialog } from '../../ui/Modal.tsx'
import { dataUrlToBlob, fileNameFor, qrPngDataUrl, qrSvg } from '../qrcode/qr.ts'
import { QrCode } from '../qrcode/qr-code.tsx'
import { guestUrl } from './permissions.ts'
import { saveBlob } from './queries.ts'

/** SPEC §2 "QR code with download": the code guests scan at the door, as PNG or SVG. */
export function QrCodeDialog({ oh, onClose }: { oh: OpenHouseDetails | null; onClose: () => void }) {
  const [failed, setFailed] = useState(false)
  const url = oh ? guestUrl(oh) : ''
  const title = oh ? oh.reProperty.propertyAddress1 : ''

  const download = async (kind: 'png' | 'svg') => {
    setFailed(false)
    try {
      const blob =
        kind === 'png'
          ? dataUrlToBlob(await qrPngDataUrl(url, 1024))
          : new Blob([await qrSvg(url)], { type: 'image/svg+xml' })
      saveBlob(blob, fileNameFor(title, kind))
    } catch {
      setFailed(true)
    }
  }

  return (
    <ModalDialog
      isOpen={oh !== null}
      onOpenChange={(open) => {
        if (!open) {
          setFailed(false)
          onClose()
        }
      }}
      title={`QR Code · ${title}`}
    >
      {oh && (
        <>
          <p>Guests scan this code at the door to sign in to the open house.</p>
          <QrCode value={url} alt={`QR code opening the guest sign-in page for ${title}`} size={280} />
          <p className="qr-dialog__url">{url}</p>
          <div className="qr-dialog__downloads">
            <Button variant="primary" onPress={() => void download('png')}>
              Download PNG
            </Button>
            <Button onPress={() => void download('svg')}>Download SVG</Button>
            <Link to="/qrcode" search={{ title, value: url }} variant="button-secondary" target="_blank">
              Open for printing
            </Link>
          </div>
          {failed && <Alert tone="error" title="The QR code couldn't be downloaded. Please try again." />}
        </>
      )}
    </ModalDialog>
  )
}
