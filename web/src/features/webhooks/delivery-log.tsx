import type { WebhookDelivery } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useReplayDelivery, webhookDeliveriesQueryOptions } from './queries.ts'

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', {
        month: '2-digit',
        day: '2-digit',
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
      })
    : '–'

const STATUS_TEXT: Record<WebhookDelivery['status'], string> = {
  pending: 'Waiting',
  sending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
}

function statusOf(d: WebhookDelivery): string {
  if (d.status === 'pending' && d.nextAttemptAt) return `Retrying at ${when(d.nextAttemptAt)}`
  return STATUS_TEXT[d.status]
}

/** One endpoint's deliveries, newest first: what was sent, how the receiver answered, and Replay. */
export function DeliveryLog({ endpointId, agentId }: { endpointId: number; agentId: number }) {
  const log = useQuery(webhookDeliveriesQueryOptions(endpointId))
  const replay = useReplayDelivery(endpointId, agentId)

  if (log.isPending) return <Spinner label="Loading the delivery log…" />
  if (log.isError) {
    return (
      <Alert
        tone="error"
        title={errorMessage(log.error, 'The delivery log could not be loaded')}
        actions={<Button onPress={() => void log.refetch()}>Try again</Button>}
      />
    )
  }
  if (log.data.length === 0) {
    return <p className="webhooks__empty">Nothing sent yet. Use Send test event to try your receiver.</p>
  }
  return (
    <div className="webhooks__log">
      {replay.isError && (
        <Alert tone="error" title={errorMessage(replay.error, 'The replay could not start')} />
      )}
      <table className="webhooks__table">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Answer</th>
            <th scope="col">Latency</th>
            <th scope="col">Response</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.data.map((d) => (
            <tr key={d.id}>
              <td data-label="Time">
                <time dateTime={d.lastAttemptAt ?? d.createdDate}>
                  {when(d.lastAttemptAt ?? d.createdDate)}
                </time>
              </td>
              <td data-label="Event">
                <code>{d.eventType}</code>
              </td>
              <td data-label="Status">
                <span className={`webhooks__badge webhooks__badge--${d.status}`}>{statusOf(d)}</span>
                {d.attempts > 1 && <span className="webhooks__muted"> ({d.attempts} attempts)</span>}
              </td>
              <td data-label="Answer">{d.responseStatus ?? '–'}</td>
              <td data-label="Latency">{d.latencyMs === null ? '–' : `${d.latencyMs} ms`}</td>
              <td data-label="Response" className="webhooks__excerpt">
                {d.lastError ?? d.responseExcerpt ?? ''}
              </td>
              <td>
                <Button
                  size="sm"
                  isDisabled={d.status === 'pending' || d.status === 'sending'}
                  isPending={replay.isPending && replay.variables === d.id}
                  onPress={() => replay.mutate(d.id)}
                  aria-label={`Replay the ${d.eventType} delivery of ${when(d.createdDate)}`}
                >
                  Replay
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
