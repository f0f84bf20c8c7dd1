import { getRouteApi } from '@tanstack/react-router'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { QrCode } from './qr-code.tsx'
import './qrcode.css'

const routeApi = getRouteApi('/qrcode')

/** SPEC /qrcode: a QR code for a title and a value, ready to print. */
export function QrCodePage() {
  const { title, value } = routeApi.useSearch()
  useDocumentTitle(title || 'QR Code')
  return (
    <section className="page page--narrow qr-page" aria-labelledby="qr-title">
      <h1 id="qr-title">{title || 'QR Code'}</h1>
      {value ? (
        <>
          <QrCode value={value} alt={`QR code for ${title || value}`} size={360} />
          <p className="qr-page__value">{value}</p>
          <div className="qr-page__actions">
            <Button variant="primary" onPress={() => window.print()}>
              Print
            </Button>
          </div>
        </>
      ) : (
        <Alert tone="info" title="There is nothing to encode.">
          Open this page from an open house's QR Code button to print its code.
        </Alert>
      )}
    </section>
  )
}
