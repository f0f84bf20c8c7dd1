import { lastUpdatedText, type Prospect } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { isNotFound } from '@tanstack/react-router'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { HrefLink } from '../../ui/Link.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { StaticDialog } from '../../ui/StaticDialog.tsx'
import { contactMasked } from './lead-owner.ts'
import { ProspectAnswers } from './prospect-answers.tsx'
import { ProspectConsent } from './prospect-consent.tsx'
import { ProspectFollowUp } from './prospect-follow-up.tsx'
import { ProspectNotes } from './prospect-notes.tsx'
import { prospectDetailsQueryOptions } from './queries.ts'

interface ProspectDetailsDialogProps {
  /** The prospect to show; null closes the dialog. */
  prospectId: number | null
  onClose: () => void
}

/** SPEC §2 Prospect Details modal: static backdrop, no keyboard dismissal, a Close button. */
export function ProspectDetailsDialog({ prospectId, onClose }: ProspectDetailsDialogProps) {
  const details = useQuery({ ...prospectDetailsQueryOptions(prospectId ?? 0), enabled: prospectId !== null })
  return (
    <StaticDialog isOpen={prospectId !== null} onClose={onClose} title="Prospect Details">
      {details.isPending ? (
        <Spinner label="Loading the prospect…" />
      ) : details.isError ? (
        <Alert
          tone="error"
          title={
            isNotFound(details.error)
              ? "This prospect doesn't exist, or isn't one you may see."
              : errorMessage(details.error, 'The prospect could not be loaded.')
          }
        />
      ) : (
        <>
          <ProspectDetails prospect={details.data} />
          <ProspectAnswers prospectId={details.data.id} />
          {details.data.ownProspect && (
            // Keyed by the prospect: another prospect's dialog starts from its own values.
            <div className="prospect-details__crm" key={details.data.id}>
              <ProspectFollowUp prospect={details.data} />
              <ProspectNotes prospectId={details.data.id} />
              <ProspectConsent prospect={details.data} />
            </div>
          )}
        </>
      )}
    </StaticDialog>
  )
}

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No')

/** The detailed prospect view; 'Other Details' only for the agent's own prospect (SPEC §4). */
export function ProspectDetails({ prospect: p }: { prospect: Prospect }) {
  const masked = contactMasked(p)
  const name = [p.prospectFirstName, p.prospectMiddleName, p.prospectLastName].filter(Boolean).join(' ')
  const address = [
    p.prospectAddress1,
    p.prospectAddress2,
    p.prospectCity,
    [p.prospectState, p.prospectZipCode].filter(Boolean).join(' '),
    p.prospectCountry,
  ]
    .filter(Boolean)
    .join(', ')
  const rows: Array<[string, string]> = [
    ['Name', name],
    ['Email', masked ? `${p.prospectEmailId} (masked)` : p.prospectEmailId],
    ['Phone', masked ? `${p.prospectPhoneNumber} (masked)` : p.prospectPhoneNumber],
    ['Address', address || '—'],
    ['County', p.prospectCounty || '—'],
    ['Current Home', p.currentHouseStatus || '—'],
    ['Home Buying Timeline', p.homeBuyingTimelines || '—'],
    [
      'Working With A Realtor',
      p.workingWithREAgentFlag === null ? 'Not said' : yesNo(p.workingWithREAgentFlag),
    ],
    ['Best Time To Contact', p.bestTimeToContact || '—'],
    ['Heard About This Open House', p.heardAboutThisOpenHouse || '—'],
    ['Preferred Contact', p.prospectNotification || '—'],
    ['Agreed To Email', yesNo(p.emailConsent)],
    ['Agreed To SMS', yesNo(p.smsConsent)],
    ['Own Prospect', yesNo(p.ownProspect)],
  ]
  return (
    <div className="prospect-details">
      {!masked && <ContactLinks prospect={p} name={name} />}
      {!p.ownProspect && (
        <Alert
          tone="info"
          title="This guest is another agent's lead, not yours."
          className="prospect-details__whose"
        >
          {masked
            ? 'Their email and phone are masked: only the agent whose lead they are sees them in full.'
            : 'They agreed to share their contact details with the listing agent of the open house they visited.'}
        </Alert>
      )}
      <dl className="details">
        {rows.map(([term, value]) => (
          <div key={term} className="details__item">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {p.ownProspect && (
        <section className="prospect-details__other" aria-labelledby="prospect-other-details">
          <h3 id="prospect-other-details">Other Details</h3>
          <dl className="details">
            <div className="details__item">
              <dt>Last Updated</dt>
              <dd>{lastUpdatedText(p.updatedDate)}</dd>
            </div>
          </dl>
        </section>
      )}
    </div>
  )
}

/** Tap to call or write: on a phone the dialler or the mail app opens with the prospect's details. */
function ContactLinks({ prospect: p, name }: { prospect: Prospect; name: string }) {
  const dial = p.prospectPhoneNumber.replace(/[^\d+]/g, '')
  return (
    <div className="prospect-details__contact">
      <HrefLink href={`tel:${dial}`} variant="button-secondary">
        Call {p.prospectPhoneNumber}
        <span className="visually-hidden"> ({name})</span>
      </HrefLink>
      <HrefLink href={`mailto:${p.prospectEmailId}`} variant="button-secondary">
        Email {p.prospectEmailId}
        <span className="visually-hidden"> ({name})</span>
      </HrefLink>
    </div>
  )
}
