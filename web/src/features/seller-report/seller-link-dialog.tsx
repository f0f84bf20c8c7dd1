import type { OpenHouseDetails } from '@porchlight/shared'
import type { SellerReportLink } from '@porchlight/shared/schemas/seller-report'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { ModalDialog } from '../../ui/Modal.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { may } from '../open-houses/permissions.ts'
import {
  sellerLinkStatusQueryOptions,
  useCreateSellerLink,
  useRevokeSellerLinks,
  useSetSellerEmail,
} from './queries.ts'
import './seller-link-dialog.css'

/** How long a new link works: a week covers an open house weekend and the days after. */
const LINK_DAYS = 7

const dateText = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' })

/**
 * The listing agent's "Seller report" button on the attendee board: a private link for the seller
 * (made, copied, revoked here). Shown only to whom the policy gives shareSellerReport.
 */
export function SellerReportLinkButton({ oh }: { oh: OpenHouseDetails }) {
  const [open, setOpen] = useState(false)
  if (!may(oh, 'shareSellerReport')) return null
  return (
    <div className="seller-link-open">
      <Button onPress={() => setOpen(true)}>Seller report</Button>
      {open && (
        <SellerLinkDialog
          openHouseId={oh.id}
          mayInformSeller={may(oh, 'informSeller')}
          isOpen={open}
          onOpenChange={setOpen}
        />
      )}
    </div>
  )
}

function SellerLinkDialog({
  openHouseId,
  mayInformSeller,
  isOpen,
  onOpenChange,
}: {
  openHouseId: number
  mayInformSeller: boolean
  isOpen: boolean
  onOpenChange: (open: boolean) => void
}) {
  const status = useQuery(sellerLinkStatusQueryOptions(openHouseId))
  const create = useCreateSellerLink(openHouseId)
  const revoke = useRevokeSellerLinks(openHouseId)
  const [made, setMade] = useState<SellerReportLink | null>(null)
  const [copied, setCopied] = useState(false)
  const [revoked, setRevoked] = useState(false)

  const makeLink = () => {
    setCopied(false)
    setRevoked(false)
    create.mutate(LINK_DAYS, { onSuccess: setMade })
  }
  const revokeAll = () => {
    revoke.mutate(undefined, {
      onSuccess: () => {
        setMade(null)
        setRevoked(true)
      },
    })
  }
  const copy = async () => {
    if (!made) return
    try {
      await navigator.clipboard.writeText(made.url)
      setCopied(true)
    } catch {
      // No clipboard (an insecure page, a refusal): the field is selectable by hand.
      setCopied(false)
    }
  }
  const active = status.data?.active ?? 0

  return (
    <ModalDialog isOpen={isOpen} onOpenChange={onOpenChange} title="Seller report link">
      <div className="seller-link">
        <p>
          Share a private page with the seller: how many visitors came, when, how they heard, their buying
          timelines, the home's ratings and anonymised comments. It updates live during the open house and
          never shows a visitor's name or contact details.
        </p>
        {status.isPending ? (
          <Spinner label="Checking the seller's links…" />
        ) : status.isError ? (
          <Alert tone="error" title={errorMessage(status.error, 'The links could not be checked')} />
        ) : (
          <p className="seller-link__status" data-testid="seller-link-status">
            {active === 0
              ? 'No working link.'
              : `${active === 1 ? '1 working link' : `${active} working links`}, the last until ${dateText(
                  status.data.expiresAt ?? '',
                )}.`}
          </p>
        )}
        {made && (
          <div className="seller-link__made">
            <TextField label="Link for the seller" value={made.url} isReadOnly />
            <p className="seller-link__hint">
              Copy it now: for privacy it is shown only once. It works until {dateText(made.expiresAt)}.
            </p>
            <div className="seller-link__row">
              <Button variant="primary" onPress={() => void copy()}>
                Copy link
              </Button>
              <span role="status" className="seller-link__copied">
                {copied ? 'Copied' : ''}
              </span>
            </div>
          </div>
        )}
        {mayInformSeller && active > 0 && status.data?.seller && (
          <SellerEmailForm openHouseId={openHouseId} seller={status.data.seller} />
        )}
        {revoked && <Alert tone="success" title="Every link was revoked. The seller's page stops working." />}
        {create.isError && (
          <Alert tone="error" title={errorMessage(create.error, 'The link could not be created')} />
        )}
        {revoke.isError && (
          <Alert tone="error" title={errorMessage(revoke.error, 'The links could not be revoked')} />
        )}
        <div className="seller-link__row">
          <Button onPress={makeLink} isPending={create.isPending}>
            {made || active > 0 ? 'Create another link' : `Create a link (${LINK_DAYS} days)`}
          </Button>
          {(active > 0 || made) && (
            <Button onPress={revokeAll} isPending={revoke.isPending}>
              Revoke all links
            </Button>
          )}
        </div>
      </div>
    </ModalDialog>
  )
}

/**
 * The seller kept informed (decision 051): the listing agent's own step, on the newest working link.
 * The seller gets one mail when the open house ends, and may unsubscribe from it.
 */
function SellerEmailForm({
  openHouseId,
  seller,
}: {
  openHouseId: number
  seller: { email: string | null; unsubscribed: boolean; mailedAt: string | null }
}) {
  const save = useSetSellerEmail(openHouseId)
  const [email, setEmail] = useState(seller.email ?? '')
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    save.mutate(email.trim() === '' ? null : email.trim())
  }
  return (
    <form className="seller-link__made" onSubmit={submit} aria-label="Seller's email">
      <TextField
        label="Seller's email (optional)"
        type="email"
        value={email}
        onChange={setEmail}
        description="When the open house ends, the seller gets one mail with the visitors, the feedback and this link."
        errorMessage={save.isError ? errorMessage(save.error, 'The email could not be saved') : null}
      />
      {seller.unsubscribed && <p className="seller-link__hint">The seller unsubscribed from these mails.</p>}
      {seller.mailedAt && (
        <p className="seller-link__hint">Mailed to the seller on {dateText(seller.mailedAt)}.</p>
      )}
      <div className="seller-link__row">
        <Button type="submit" isPending={save.isPending}>
          Save email
        </Button>
        {seller.email && (
          <Button
            onPress={() => save.mutate(null, { onSuccess: () => setEmail('') })}
            isPending={save.isPending}
          >
            Remove email
          </Button>
        )}
        <span role="status" className="seller-link__copied">
          {save.isSuccess ? 'Saved' : ''}
        </span>
      </div>
    </form>
  )
}
