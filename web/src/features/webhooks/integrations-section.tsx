import type { WebhookEndpoint } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { DeliveryLog } from './delivery-log.tsx'
import { EndpointForm } from './endpoint-form.tsx'
import { FubConnectorForm } from './fub-connector.tsx'
import { useDeleteWebhookEndpoint, useSendTestEvent, webhookEndpointsQueryOptions } from './queries.ts'
import './webhooks.css'

/**
 * My Stuff → Integrations: the agent's webhook endpoints (and those of the teams it leads) with their
 * delivery logs, and its Follow Up Boss connector.
 */
export function IntegrationsSection({ agentId }: { agentId: number }) {
  const endpoints = useQuery(webhookEndpointsQueryOptions(agentId))
  return (
    <div className="webhooks">
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p className="webhooks__intro">
          Porchlight sends your new leads, sign-ins, feedback and open house changes to your own systems as
          they happen, signed so your receiver can tell they come from us.
        </p>
        {endpoints.isPending ? (
          <Spinner label="Loading your endpoints…" />
        ) : endpoints.isError ? (
          <Alert
            tone="error"
            title={errorMessage(endpoints.error, 'Your endpoints could not be loaded')}
            actions={<Button onPress={() => void endpoints.refetch()}>Try again</Button>}
          />
        ) : endpoints.data.length === 0 ? (
          <p className="webhooks__empty">No endpoints yet. Add one below to start receiving events.</p>
        ) : (
          <ul className="webhooks__list" aria-label="Your endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} agentId={agentId} />
            ))}
          </ul>
        )}
        <EndpointForm agentId={agentId} />
      </section>
      <FubConnectorForm />
    </div>
  )
}

function EndpointCard({ endpoint, agentId }: { endpoint: WebhookEndpoint; agentId: number }) {
  const [showLog, setShowLog] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const test = useSendTestEvent(endpoint.id, agentId)
  const remove = useDeleteWebhookEndpoint(agentId)
  const logId = `webhook-log-${endpoint.id}`
  const name = endpoint.description ?? endpoint.url

  return (
    <li className="webhooks__endpoint">
      <div className="webhooks__head">
        <div>
          <p className="webhooks__url">{endpoint.url}</p>
          {endpoint.description && <p className="webhooks__muted">{endpoint.description}</p>}
          {endpoint.teamId !== null && (
            <p className="webhooks__muted">
              For everyone in <strong>{endpoint.teamName ?? 'your team'}</strong>
            </p>
          )}
          <p className="webhooks__muted">
            Events: <span className="webhooks__event-list">{endpoint.events.join(', ')}</span>
          </p>
        </div>
        <span className={`webhooks__badge webhooks__badge--${endpoint.disabledAt ? 'failed' : 'succeeded'}`}>
          {endpoint.disabledAt ? 'Turned off after 3 days of failures' : 'Active'}
        </span>
      </div>
      <div className="webhooks__actions">
        <Button aria-expanded={showLog} aria-controls={logId} onPress={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button
          isPending={test.isPending}
          onPress={() => test.mutate(endpoint.id, { onSuccess: () => setShowLog(true) })}
        >
          Send test event
        </Button>
        <Button onPress={() => setConfirming(true)}>Delete</Button>
        <span role="status" className="webhooks__status">
          {test.isSuccess ? 'Test event sent: see the delivery log' : ''}
        </span>
      </div>
      {test.isError && (
        <Alert tone="error" title={errorMessage(test.error, 'The test event could not be sent')} />
      )}
      <div id={logId} hidden={!showLog}>
        {showLog && <DeliveryLog endpointId={endpoint.id} agentId={agentId} />}
      </div>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Delete this endpoint?"
        confirmLabel="Delete"
        cancelLabel="Keep it"
        isPending={remove.isPending}
        error={
          remove.isError ? (
            <Alert tone="error" title={errorMessage(remove.error, 'The endpoint could not be deleted')} />
          ) : null
        }
        onConfirm={() => remove.mutate(endpoint.id, { onSuccess: () => setConfirming(false) })}
      >
        {name} stops receiving events, and its delivery log is deleted.
      </ConfirmDialog>
    </li>
  )
}
