import type { OpenHouseDetails, OpenHouseProspect } from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { cx } from '../../ui/cx.ts'
import { anyAnswers, CustomAnswersList } from '../prospects/custom-answers-list.tsx'
import { contactMasked, leadOwnerText } from '../prospects/lead-owner.ts'

interface AttendeeTableProps {
  attendees: OpenHouseProspect[]
  oh: Pick<
    OpenHouseDetails,
    'listingREAgentId' | 'listingREAgentName' | 'hostingREAgentId' | 'hostingREAgentName'
  >
  /** signedInAt of the rows that arrived live a moment ago. */
  fresh: ReadonlySet<string>
  onView: (prospectId: number) => void
}

export const signedInTime = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })

export const newestFirst = (attendees: OpenHouseProspect[]) =>
  [...attendees].sort((a, b) => b.signedInAt.localeCompare(a.signedInAt))

/**
 * The attendees, newest first; a guest who just signed in slides in highlighted. Each row says whose
 * lead the guest is: contact details of someone else's lead arrive masked unless the guest agreed to
 * share them with the listing agent, and the row says so rather than passing them off as the agent's.
 */
export function AttendeeTable({ attendees, oh, fresh, onView }: AttendeeTableProps) {
  const rows = newestFirst(attendees)
  const answered = anyAnswers(rows)
  return (
    <div className="board-table-wrap">
      <table className="board-table">
        <caption className="visually-hidden">Attendees, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            <th scope="col">Lead</th>
            <th scope="col">Realtor</th>
            <th scope="col">Signed In</th>
            {answered && <th scope="col">Answers</th>}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => {
            const name = `${a.prospectFirstName} ${a.prospectLastName}`
            const isNew = fresh.has(a.signedInAt)
            const masked = contactMasked(a)
            return (
              <tr key={a.attendeeId} className={cx(isNew && 'board-table__new')}>
                <th scope="row">
                  {name}
                  {isNew && <span className="board-table__badge">Just signed in</span>}
                </th>
                <td>
                  {a.prospectEmailId}
                  {masked && <span className="visually-hidden"> (masked)</span>}
                </td>
                <td>
                  {a.prospectPhoneNumber}
                  {masked && <span className="visually-hidden"> (masked)</span>}
                </td>
                <td>
                  {leadOwnerText(a, oh)}
                  {!a.ownProspect && (
                    <span className="board-table__shared">
                      {masked ? 'Contact masked' : 'Shared with the listing agent'}
                    </span>
                  )}
                </td>
                <td>
                  {a.workingWithREAgentFlag === null
                    ? 'Not said'
                    : a.workingWithREAgentFlag
                      ? 'Has a realtor'
                      : 'No realtor'}
                </td>
                <td>{signedInTime(a.signedInAt)}</td>
                {answered && (
                  <td>
                    <CustomAnswersList answers={a.customAnswers} />
                  </td>
                )}
                <td>
                  <Button size="sm" onPress={() => onView(a.id)}>
                    View<span className="visually-hidden"> {name}</span>
                  </Button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
