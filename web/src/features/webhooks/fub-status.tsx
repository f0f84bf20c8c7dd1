import type { FubConnector } from '@porchlight/shared'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { useRetryFubConnector } from './queries.ts'

const leads = (n: number) => (n === 1 ? '1 lead is' : `${n} leads are`)

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : null

/** What the connector's status means to the agent, in words (decision 041). */
export function fubStatusTitle(c: Pick<FubConnector, 'status' | 'pending'>): string | null {
  if (c.status === 'rejected') return 'Follow Up Boss refused your API key'
  if (c.status === 'failing') return 'Follow Up Boss is not taking your leads right now'
  if (c.pending > 0) return `${leads(c.pending)} waiting to be sent to Follow Up Boss`
  return null
}

/**
 * A refused key or a failing Follow Up Boss: the last error, when it came, how many leads wait (none is
 * lost), and Retry, which sends each waiting lead once. Nothing shows while all is well, except the
 * last lead Follow Up Boss ignored (204), as a note.
 */
export function FubConnectorStatus({ connector }: { connector: FubConnector }) {
  const retry = useRetryFubConnector()
  const title = fubStatusTitle(connector)
  if (!title) {
    return connector.connected && connector.lastError ? (
      <p className="webhooks__muted">
        Last note from Follow Up Boss ({when(connector.lastErrorAt)}): {connector.lastError}
      </p>
    ) : null
  }
  return (
    <Alert
      tone={connector.status === 'ok' ? 'info' : 'error'}
      title={title}
      actions={
        connector.connected ? (
          <Button variant="primary" isPending={retry.isPending} onPress={() => retry.mutate()}>
            {retry.isPending ? 'Retrying…' : 'Retry'}
          </Button>
        ) : undefined
      }
    >
      {connector.lastError && (
        <p>
          Last error{connector.lastErrorAt ? ` (${when(connector.lastErrorAt)})` : ''}: {connector.lastError}
        </p>
      )}
      <p>
        {connector.pending === 0
          ? 'No lead is waiting.'
          : `${leads(connector.pending)} waiting in Porchlight; none is lost.`}{' '}
        {!connector.connected
          ? 'Save an API key below, then press Retry: every waiting lead is sent once.'
          : connector.status === 'rejected'
            ? 'Save a new API key below, then press Retry: every waiting lead is sent once.'
            : 'Retry sends every waiting lead once, now.'}
      </p>
      {retry.isError && <p>{errorMessage(retry.error, 'The leads could not be sent again')}</p>}
      {retry.isSuccess && connector.pending > 0 && <p role="status">Sending the waiting leads…</p>}
    </Alert>
  )
}
