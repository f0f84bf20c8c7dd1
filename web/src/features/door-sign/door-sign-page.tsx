import { doorSignFileName, doorSignText } from '@porchlight/shared/rules/door-sign'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { apiDownload, errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { NotFound } from '../../ui/not-found.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { guestUrl, may, onShow } from '../open-houses/permissions.ts'
import { openHouseDetailsQueryOptions, saveBlob } from '../open-houses/queries.ts'
import { QrCode } from '../qrcode/qr-code.tsx'
import './door-sign.css'
import { BrandMark } from '../../ui/BrandMark.tsx'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/sign')

/**
 * The door sign: what a guest needs at the front door (the address, the date and time, who greets
 * them, the QR code to sign in), one Letter page when printed. The same lines as the server's PDF
 * (`doorSignText`); the code opens the same guest URL as the QR Code dialog.
 */
export function DoorSignPage() {
  const { openHouseId } = routeApi.useParams()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const sign = doorSignText(oh)
  const allowed = may(oh, 'printDoorSign')
  useDocumentTitle(allowed ? `Door sign · ${sign.street}` : 'Page not found')
  const [downloading, setDownloading] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  if (!allowed) return <NotFound />
  const url = guestUrl(oh)
  // The same states the server's PDF refuses: a code that would open nothing is not printed.
  const unusable = oh.openHouseCanceledFlag
    ? 'This open house was canceled.'
    : !onShow(oh)
      ? 'Guests can sign in once the open house is published. Publish it, then print its door sign.'
      : !oh.scheduledDate
        ? 'The date and time are not fixed yet.'
        : null
  if (unusable) {
    return (
      <section className="page page--narrow" aria-labelledby="door-sign-title">
        <h1 id="door-sign-title">Door sign</h1>
        <Alert tone="info" title={unusable} />
      </section>
    )
  }

  const download = async () => {
    setFailure(null)
    setDownloading(true)
    try {
      saveBlob(await apiDownload(`/openhousemgmt/getDoorSignPdf/${oh.id}`), doorSignFileName(sign.street))
    } catch (error) {
      setFailure(errorMessage(error, 'The PDF could not be made. Please try again.'))
    } finally {
      setDownloading(false)
    }
  }

  return (
    <section className="door-sign-page" aria-labelledby="door-sign-title">
      <header className="door-sign-page__toolbar">
        <div>
          <h1 id="door-sign-title">Door sign</h1>
          <p className="door-sign-page__hint">
            Print it on Letter paper and put it up at the front door: guests scan the code to sign in.
          </p>
        </div>
        <div className="door-sign-page__actions">
          <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }} variant="button-secondary">
            Back to open houses
          </Link>
          <Button onPress={() => void download()} isPending={downloading}>
            Download PDF
          </Button>
          <Button variant="primary" onPress={() => window.print()}>
            Print
          </Button>
        </div>
        {failure && <Alert tone="error" title={failure} />}
      </header>

      <article className="door-sign" aria-label={`Door sign for ${sign.street}`}>
        <div className="door-sign__brand">
          <BrandMark className="door-sign__mark" />
          <span className="door-sign__brand-name">{sign.brand}</span>
          <span className="door-sign__eyebrow">Open house</span>
        </div>
        <div className="door-sign__where">
          <h2 className="door-sign__street">{sign.street}</h2>
          <p className="door-sign__place">{sign.place}</p>
        </div>
        <div className="door-sign__when">
          {sign.date && <p className="door-sign__date">{sign.date}</p>}
          <p className="door-sign__time">{sign.time}</p>
        </div>
        <div className="door-sign__qr">
          <QrCode value={url} alt={`QR code opening the guest sign-in page for ${sign.street}`} size={640} />
        </div>
        <div className="door-sign__foot">
          <p className="door-sign__call">{sign.call}</p>
          <p className="door-sign__host">Your host: {sign.agentName}</p>
          {sign.brokerage && <p className="door-sign__brokerage">{sign.brokerage}</p>}
          <p className="door-sign__url">{url}</p>
        </div>
      </article>
    </section>
  )
}
