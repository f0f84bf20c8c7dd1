import { consentKindLabel, consentSourceLabel, type Prospect } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import {
  downloadProspectVCard,
  prospectConsentsQueryOptions,
  useOptOutProspectEmailMutation,
} from './consent-queries.ts'

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })

/** The owner's own prospect: its email consent history (time, what, source) and its vCard to download. */
export function ProspectConsent({ prospect: p }: { prospect: Prospect }) {
  const history = useQuery(prospectConsentsQueryOptions(p.id))
  const [downloading, setDownloading] = useState(false)
  const [downloadError, setDownloadError] = useState<string | null>(null)
  const optOut = useOptOutProspectEmailMutation(p.id)
  const optedOut = history.data?.some((e) => e.kind === 'email_opt_out') ?? false

  const download = async () => {
    setDownloading(true)
    setDownloadError(null)
    try {
      const name = `${p.prospectFirstName}-${p.prospectLastName}`.replace(/[^\p{L}\p{N}-]+/gu, '-')
      await downloadProspectVCard(p.id, `${name}.vcf`)
    } catch (error) {
      setDownloadError(errorMessage(error, "The vCard couldn't be downloaded. Please try again."))
    } finally {
      setDownloading(false)
    }
  }

  return (
    <section className="prospect-notes" aria-labelledby="prospect-consent-title">
      <h3 id="prospect-consent-title">Email consent</h3>
      {history.isPending ? (
        <Spinner label="Loading the consent history…" />
      ) : history.isError ? (
        <Alert
          tone="error"
          title={errorMessage(history.error, 'The consent history could not be loaded.')}
          actions={<Button onPress={() => void history.refetch()}>Try again</Button>}
        />
      ) : history.data.length === 0 ? (
        <p className="prospect-notes__empty">No consent recorded: this guest did not agree to email.</p>
      ) : (
        <ol className="prospect-notes__list" aria-label="Consent history, newest first">
          {history.data.map((e) => (
            <li key={e.id} className="prospect-notes__item">
              <time dateTime={e.at} className="prospect-notes__time">
                {when(e.at)}
              </time>
              <p className="prospect-notes__text">
                {consentKindLabel[e.kind]} — {consentSourceLabel[e.source]}
                {e.detail ? ` (${e.detail})` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
      <div className="prospect-details__contact">
        {history.isSuccess && !optedOut && (
          <Button onPress={() => optOut.mutate()} isPending={optOut.isPending}>
            Stop email to this guest
          </Button>
        )}
        <Button onPress={() => void download()} isPending={downloading}>
          Download vCard
          <span className="visually-hidden">
            {' '}
            ({p.prospectFirstName} {p.prospectLastName})
          </span>
        </Button>
      </div>
      {optOut.isError && (
        <Alert
          tone="error"
          title={errorMessage(optOut.error, "The opt-out couldn't be saved. Please try again.")}
        />
      )}
      {downloadError && <Alert tone="error" title={downloadError} />}
    </section>
  )
}
