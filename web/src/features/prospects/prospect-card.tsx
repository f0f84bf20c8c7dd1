import type { Prospect } from '@porchlight/shared'
import type { ReactNode } from 'react'
import { formatDate } from '../../ui/format.ts'

export const prospectName = (p: Pick<Prospect, 'prospectFirstName' | 'prospectLastName'>) =>
  `${p.prospectFirstName} ${p.prospectLastName}`

/** SPEC prospect card: name, address (line 1, city, state, zip), email, phone, and its buttons. */
export function ProspectCard({ prospect: p, actions }: { prospect: Prospect; actions: ReactNode }) {
  const titleId = `prospect-${p.id}-title`
  const place = [p.prospectCity, [p.prospectState, p.prospectZipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ')
  return (
    <article className="card prospect-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="prospect-card__name">
        {prospectName(p)}
      </h3>
      {p.prospectStage && <ProspectStatus prospect={p} />}
      <address className="prospect-card__contact">
        {p.prospectAddress1 && <span>{p.prospectAddress1}</span>}
        {place && <span>{place}</span>}
        <span>{p.prospectEmailId}</span>
        <span>{p.prospectPhoneNumber}</span>
      </address>
      <div className="prospect-card__actions">{actions}</div>
    </article>
  )
}

/** The owner's stage and next follow-up, in words (never colour alone). */
export function ProspectStatus({ prospect: p }: { prospect: Prospect }) {
  return (
    <p className="prospect-card__status">
      <span className={`prospect-stage prospect-stage--${(p.prospectStage ?? 'New').toLowerCase()}`}>
        {p.prospectStage}
      </span>
      {p.workingWithREAgentFlag === false && <span className="prospect-tag">No realtor</span>}
      {p.nextFollowUpDate && (
        <span className="prospect-card__follow-up">Follow up {formatDate(p.nextFollowUpDate)}</span>
      )}
    </p>
  )
}
