import type { OpenHouseDetails, OpenHouseProspect } from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { cx } from '../../ui/cx.ts'
import { CustomAnswersList } from '../prospects/custom-answers-list.tsx'
import { contactMasked, leadOwnerText } from '../prospects/lead-owner.ts'
import { newestFirst, signedInTime } from './attendee-table.tsx'

interface AttendeeCardsProps {
  attendees: OpenHouseProspect[]
  oh: Pick<
    OpenHouseDetails,
    'listingREAgentId' | 'listingREAgentName' | 'hostingREAgentId' | 'hostingREAgentName'
  >
  /** signedInAt of the guests who arrived live a moment ago. */
  fresh: ReadonlySet<string>
  onView: (prospectId: number) => void
}

/** Digits and a leading + only: what a tel: link dials. */
const dialable = (phone: string) => phone.replace(/[^\d+]/g, '')

/**
 * The attendees on a phone, newest first, one card each: who, whether they work with an agent, when
 * they mean to buy, and one tap to call or mail them (only when the contact details are not masked).
 */
export function AttendeeCards({ attendees, oh, fresh, onView }: AttendeeCardsProps) {
  return (
    <ul className="attendee-cards" aria-label="Attendees, newest first">
      {newestFirst(attendees).map((a) => {
        const name = `${a.prospectFirstName} ${a.prospectLastName}`
        const isNew = fresh.has(a.signedInAt)
        const masked = contactMasked(a)
        return (
          <li key={a.attendeeId}>
            <article
              className={cx('attendee-card', isNew && 'attendee-card--new')}
              aria-labelledby={`attendee-${a.attendeeId}`}
              data-testid="attendee-card"
            >
              <header className="attendee-card__head">
                <h3 id={`attendee-${a.attendeeId}`} className="attendee-card__name">
                  {name}
                </h3>
                {isNew && <span className="board-table__badge">Just signed in</span>}
                <span className="attendee-card__time">{signedInTime(a.signedInAt)}</span>
              </header>
              <p className="attendee-card__facts">
                <span>
                  {a.workingWithREAgentFlag === null
                    ? 'Did not say if working with an agent'
                    : a.workingWithREAgentFlag
                      ? 'Working with an agent'
                      : 'Not working with an agent'}
                </span>
                <span>Timeline: {a.homeBuyingTimelines ?? 'not given'}</span>
                <span>{leadOwnerText(a, oh)}</span>
              </p>
              <CustomAnswersList answers={a.customAnswers} />
              {masked ? (
                <p className="attendee-card__masked">
                  Contact masked: {a.prospectEmailId} · {a.prospectPhoneNumber}
                </p>
              ) : (
                <p className="attendee-card__contact">
                  <a className="attendee-card__link" href={`tel:${dialable(a.prospectPhoneNumber)}`}>
                    <span className="attendee-card__link-label">Call</span>
                    <span className="visually-hidden"> {name}, </span>
                    <span className="attendee-card__link-value">{a.prospectPhoneNumber}</span>
                  </a>
                  <a className="attendee-card__link" href={`mailto:${a.prospectEmailId}`}>
                    <span className="attendee-card__link-label">Email</span>
                    <span className="visually-hidden"> {name}, </span>
                    <span className="attendee-card__link-value">{a.prospectEmailId}</span>
                  </a>
                </p>
              )}
              <Button size="sm" onPress={() => onView(a.id)} className="attendee-card__view">
                View<span className="visually-hidden"> {name}</span>
              </Button>
            </article>
          </li>
        )
      })}
    </ul>
  )
}
