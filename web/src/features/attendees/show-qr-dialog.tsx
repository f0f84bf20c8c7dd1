import type { OpenHouseDetails } from '@porchlight/shared'
import { FullScreenDialog } from '../../ui/FullScreenDialog.tsx'
import { guestUrl } from '../open-houses/permissions.ts'
import { QrCode } from '../qrcode/qr-code.tsx'

/** Pixels the code is drawn at; the screen scales it down to fit, sharp (qrcode.css). */
const DRAWN_AT = 720

/**
 * The guest sign-in QR code, filling the host's phone so a visitor can scan it from the hand. The same
 * code as the printable one (open-houses/qr-code-dialog.tsx), through the same URL and drawing.
 */
export function ShowQrDialog({
  oh,
  isOpen,
  onOpenChange,
}: {
  oh: OpenHouseDetails
  isOpen: boolean
  onOpenChange: (open: boolean) => void
}) {
  const url = guestUrl(oh)
  const street = oh.reProperty.propertyAddress1
  return (
    <FullScreenDialog isOpen={isOpen} onOpenChange={onOpenChange} title="Scan to sign in">
      <p className="show-qr__address">{oh.reProperty.completePropertyAddress}</p>
      <div className="show-qr__code">
        <QrCode value={url} alt={`QR code opening the guest sign-in page for ${street}`} size={DRAWN_AT} />
      </div>
      <p className="show-qr__hint">Point your phone's camera at the code to sign in.</p>
    </FullScreenDialog>
  )
}
