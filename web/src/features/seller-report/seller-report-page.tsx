import type { FeedbackRatingField } from '@porchlight/shared/constants/feedback-ratings'
import type { SellerReport } from '@porchlight/shared/schemas/seller-report'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { ratingLabel } from '../../common/feedback-fields.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { sellerReportQueryOptions, useSellerReportLive } from './queries.ts'
// Fonts for any name or address the report prints (CJK, emoji): a phone has them, a printer's
// computer may not. Each face is cut by Unicode range, so a browser fetches only the slices in use.
import '@fontsource/noto-sans-sc/400.css'
import '@fontsource/noto-sans-sc/700.css'
import '@fontsource/noto-emoji/400.css'
import './seller-report.css'

const routeApi = getRouteApi('/seller/$token')

/**
 * /seller/{token}: the seller's private report of its open house, on a phone first and printable. No
 * sign-in: the link's token is the authority. It updates itself while the open house runs, and shows no
 * visitor's name or contact, because the server never sends one.
 */
/** How long the first drawing of the report waits for its letters' fonts at most. */
const FONT_WAIT_MS = 3000

/**
 * Whether the Noto faces for the report's own text have arrived (or the wait ran out). Chromium on Linux
 * shapes a letter system-ui's font lacks (CJK) with that font's empty glyph while the slice holding it is
 * on its way, and keeps that shape when it arrives: the normal-weight name printed as boxes (decision
 * 051). Asked for by the text itself, the slices are there before the report is first drawn.
 */
function useReportFonts(report: SellerReport | undefined): boolean {
  const [ready, setReady] = useState(false)
  const text = report
    ? [report.openHouse.address, report.openHouse.listingAgentName, ...report.feedback.comments].join(' ')
    : null
  useEffect(() => {
    if (text === null || ready) return
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined
    if (!fonts?.load) {
      setReady(true)
      return
    }
    let done = false
    const finish = () => {
      if (!done) setReady(true)
      done = true
    }
    const timer = setTimeout(finish, FONT_WAIT_MS)
    Promise.all(
      ['400', '700'].flatMap((weight) => [
        fonts.load(`${weight} 1em "Noto Sans SC"`, text),
        fonts.load(`${weight} 1em "Noto Emoji"`, text),
      ]),
    ).then(finish, finish)
    return () => clearTimeout(timer)
  }, [text, ready])
  return ready
}

export function SellerReportPage() {
  const { token } = routeApi.useParams()
  const report = useQuery(sellerReportQueryOptions(token))
  const fontsReady = useReportFonts(report.data)
  const gone = report.error instanceof ApiError && report.error.status === 404
  useSellerReportLive(token, !gone)
  useDocumentTitle('Seller report')

  return (
    <div className="page seller-report">
      {report.isPending || (report.data && !fontsReady) ? (
        <Spinner label="Loading your open house report…" />
      ) : gone ? (
        <>
          <h1>Seller report</h1>
          <Alert tone="info" title="This link has expired or was revoked">
            Ask your listing agent for a new link to see how your open house is going.
          </Alert>
        </>
      ) : report.isError ? (
        <>
          <h1>Seller report</h1>
          <Alert
            tone="error"
            title="The report could not be loaded"
            actions={<Button onPress={() => void report.refetch()}>Try again</Button>}
          >
            Check your connection and try again.
          </Alert>
        </>
      ) : (
        <Report report={report.data} />
      )}
    </div>
  )
}

function whenText(oh: SellerReport['openHouse']): string {
  if (!oh.scheduledDate) return 'Date to be set'
  const date = new Date(`${oh.scheduledDate}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
  return `${date}, ${oh.scheduledStartTime} – ${oh.scheduledEndTime}`
}

function Report({ report }: { report: SellerReport }) {
  const { openHouse: oh, visitors, feedback } = report
  const time = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: oh.openHouseTimezone,
  })
  const day = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: oh.openHouseTimezone,
  })
  const oneDay = new Set(visitors.visits.map((v) => day.format(new Date(v.signedInAt)))).size <= 1
  const at = (iso: string) =>
    oneDay ? time.format(new Date(iso)) : `${day.format(new Date(iso))}, ${time.format(new Date(iso))}`
  const expires = new Date(report.expiresAt).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  })

  return (
    <>
      <header className="seller-report__header">
        <p className="seller-report__eyebrow">Open house report for the seller</p>
        <h1>{oh.address}</h1>
        <p className="seller-report__when">{whenText(oh)}</p>
        <p className="seller-report__agent">Listing agent: {oh.listingAgentName}</p>
        <div className="seller-report__status">
          {oh.canceled ? (
            <span className="seller-report__badge seller-report__badge--canceled">Canceled</span>
          ) : oh.live ? (
            <span className="seller-report__badge seller-report__badge--live">
              Live: updates as visitors sign in
            </span>
          ) : null}
          <Button className="seller-report__print" size="sm" onPress={() => window.print()}>
            Print report
          </Button>
        </div>
      </header>

      <section className="card seller-report__section" aria-labelledby="seller-visitors">
        <h2 id="seller-visitors">Visitors so far</h2>
        <p className="seller-report__count" aria-live="polite" data-testid="seller-visitor-count">
          {visitors.count === 1 ? '1 visitor' : `${visitors.count} visitors`}
        </p>
        {visitors.count === 0 ? (
          <p className="seller-report__empty">
            No visitors yet. This page updates by itself as visitors sign in; there is no need to reload it.
          </p>
        ) : (
          <>
            <dl className="seller-report__agents">
              <div>
                <dt>Without an agent</dt>
                <dd>{visitors.withoutAgent}</dd>
              </div>
              <div>
                <dt>With an agent</dt>
                <dd>{visitors.withAgent}</dd>
              </div>
              <div>
                <dt>Did not say</dt>
                <dd>{visitors.agentUnknown}</dd>
              </div>
            </dl>
            <div className="seller-report__columns">
              <Counts title="How they heard" id="seller-heard" counts={visitors.heardAbout} />
              <Counts title="When they plan to buy" id="seller-timelines" counts={visitors.timelines} />
            </div>
            <h3 id="seller-arrivals">When they came</h3>
            <ol className="seller-report__visits" aria-labelledby="seller-arrivals">
              {visitors.visits.map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: visits carry no id (they name no one); earliest first
                <li key={i}>
                  <span className="seller-report__visit-time">{at(v.signedInAt)}</span>
                  <span className="seller-report__visit-facts">
                    {[
                      v.heardAboutThisOpenHouse ? `Heard: ${v.heardAboutThisOpenHouse}` : null,
                      v.homeBuyingTimelines ? `Timeline: ${v.homeBuyingTimelines}` : null,
                      v.workingWithREAgent === null
                        ? null
                        : v.workingWithREAgent
                          ? 'Has an agent'
                          : 'No agent',
                    ]
                      .filter(Boolean)
                      .join(' · ') || 'No answers given'}
                  </span>
                </li>
              ))}
            </ol>
          </>
        )}
      </section>

      <section className="card seller-report__section" aria-labelledby="seller-feedback">
        <h2 id="seller-feedback">What visitors thought</h2>
        {feedback.count === 0 ? (
          <p className="seller-report__empty">
            No feedback yet. Visitors are asked for it after they sign in.
          </p>
        ) : (
          <>
            <p className="seller-report__note">
              {feedback.count === 1 ? '1 visitor' : `${feedback.count} visitors`} gave feedback. Average
              ratings, 1 to 5 (5 is excellent).
            </p>
            {feedback.ratings.length > 0 && (
              <ul className="seller-report__ratings" aria-label="Average ratings of the home">
                {feedback.ratings.map((r) => (
                  <li key={r.field} className="seller-report__rating">
                    <span className="seller-report__rating-label">
                      {ratingLabel(r.field as FeedbackRatingField)}
                    </span>
                    <span className="seller-report__rating-track" aria-hidden="true">
                      <span
                        className="seller-report__rating-fill"
                        style={{ width: `${(r.average / 5) * 100}%` }}
                      />
                    </span>
                    <span className="seller-report__rating-value">
                      {r.average.toFixed(1)} of 5 <span className="seller-report__muted">({r.count})</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {feedback.comments.length > 0 && (
              <>
                <h3>Comments</h3>
                <ul className="seller-report__comments">
                  {feedback.comments.map((text, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: comments may repeat and carry no id; newest first
                    <li key={i}>{text}</li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>

      <p className="seller-report__footer">
        Visitors' names and contact details are never shown here. This private link works until {expires}.
      </p>
    </>
  )
}

function Counts({
  title,
  id,
  counts,
}: {
  title: string
  id: string
  counts: SellerReport['visitors']['heardAbout']
}) {
  return (
    <div>
      <h3 id={id}>{title}</h3>
      {counts.length === 0 ? (
        <p className="seller-report__muted">Nobody said yet.</p>
      ) : (
        <ul className="seller-report__counts" aria-labelledby={id}>
          {counts.map((c) => (
            <li key={c.label}>
              <span>{c.label}</span> <span className="seller-report__count-value">{c.count}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
