import { useQuery } from '@tanstack/react-query'
import { Alert } from '../../ui/Alert.tsx'
import { Link } from '../../ui/Link.tsx'
import { fubStatusTitle } from '../webhooks/fub-status.tsx'
import { fubConnectorQueryOptions } from '../webhooks/queries.ts'

/**
 * A Follow Up Boss connector that refuses or fails shows on the dashboard too, with the way to
 * Integrations, where the agent fixes the key and retries. Nothing shows while it loads or works.
 */
export function FubBanner() {
  const connector = useQuery(fubConnectorQueryOptions())
  const c = connector.data
  if (!c?.connected || c.status === 'ok') return null
  return (
    <Alert
      tone="error"
      title={fubStatusTitle(c)}
      actions={
        <Link to="/mystuff" search={{ activeSection: 'integrations' }} variant="button-secondary">
          Open Integrations
        </Link>
      }
    >
      <p>{c.pending === 1 ? '1 lead is' : `${c.pending} leads are`} waiting in Porchlight; none is lost.</p>
    </Alert>
  )
}
