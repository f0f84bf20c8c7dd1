import type { OpenHouseDetails } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { formatDate } from '../../ui/format.ts'
import { ModalDialog } from '../../ui/Modal.tsx'
import { scheduleDateText, scheduleTimeText } from './permissions.ts'
import { openHouseDetailsQueryOptions } from './queries.ts'
import { StatusBadge } from './status-badge.tsx'

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No')

/** SPEC §2 "Modals: open house details": everything known about one open house. */
export function OpenHouseDetailsDialog({
  oh,
  onClose,
}: {
  oh: OpenHouseDetails | null
  onClose: () => void
}) {
  return (
    <ModalDialog
      isOpen={oh !== null}
      onOpenChange={(open) => !open && onClose()}
      title={oh ? oh.reProperty.propertyAddress1 : 'Open house details'}
      size="lg"
    >
      {oh && <DetailsBody oh={oh} />}
    </ModalDialog>
  )
}

function DetailsBody({ oh: opened }: { oh: OpenHouseDetails }) {
  // Kept current while open: a live change to this open house (an edit by its listing agent, a claim)
  // makes its details stale, and they are fetched again; until then, what the list showed.
  const { data } = useQuery({ ...openHouseDetailsQueryOptions(opened.id), placeholderData: opened })
  const oh = data ?? opened
  const rows: Array<[string, ReactNode]> = [
    ['Status', <StatusBadge key="status" status={oh.status} />],
    ['Address', oh.reProperty.completePropertyAddress],
    ['Property type', oh.reProperty.propertyType],
    ['Open house for', oh.openHouseFor],
    ['Date', scheduleDateText(oh)],
    ['Time', scheduleTimeText(oh)],
    ['Time zone', oh.openHouseTimezone],
    ['Preparation date', formatDate(oh.openHousePreparationDate)],
    ['Listing agent', oh.listingREAgentName],
    ...(oh.scheduledByREAgentId === oh.listingREAgentId
      ? []
      : ([['Scheduled by', oh.scheduledByREAgentName]] as Array<[string, ReactNode]>)),
    ['Hosting agent', oh.hostingREAgentName ?? 'Not claimed yet'],
    ['Publish level', `${oh.publishLevel}${oh.published ? ' (published)' : ''}`],
    ['Balloons put out', yesNo(oh.balloonsPutOutFlag)],
    ['Snacks served', yesNo(oh.snackServedFlag)],
    ['Meal served', yesNo(oh.mealServedFlag)],
    ['Drinks served', yesNo(oh.drinkServedFlag)],
    ['Auto-clone', yesNo(oh.autoCloneOpenHouseFlag)],
    ['MLS Id', oh.mlsId ?? '—'],
    [
      'Listing URL',
      oh.listingURL ? (
        <a key="url" className="link link--inline" href={oh.listingURL} target="_blank" rel="noreferrer">
          {oh.listingURL}
        </a>
      ) : (
        '—'
      ),
    ],
    ['Feedback shared with', oh.emailIdForSharingOHFeedback ?? '—'],
  ]
  if (oh.openHouseCanceledFlag) rows.push(['Cancel reason', oh.openHouseCancelReason ?? '—'])
  return (
    <>
      <dl className="details">
        {rows.map(([label, value]) => (
          <div key={label} className="details__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {oh.openHouseInstructions && (
        <section className="oh-details__instructions" aria-label="Instructions">
          <h3>Instructions</h3>
          <p>{oh.openHouseInstructions}</p>
        </section>
      )}
    </>
  )
}
