import { SaveFubConnectorBody } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { FubConnectorStatus } from './fub-status.tsx'
import { fubConnectorQueryOptions, useDeleteFubConnector, useSaveFubConnector } from './queries.ts'

/** Follow Up Boss: each guest sign-in goes to the agent's account as a 'Visited Open House' event. */
export function FubConnectorForm() {
  const connector = useQuery(fubConnectorQueryOptions())
  const save = useSaveFubConnector()
  const remove = useDeleteFubConnector()
  const form = useForm({ apiKey: '' })

  const submit = () => {
    const body = form.parse(SaveFubConnectorBody)
    if (!body) return
    save.mutate(body, {
      onSuccess: () => form.setValue('apiKey', ''),
      onError: (error) => form.showError(formFailure(error, "The key couldn't be saved. Please try again.")),
    })
  }

  return (
    <section className="webhooks__fub" aria-labelledby="fub-title">
      <h2 id="fub-title">Follow Up Boss</h2>
      <p className="webhooks__intro">
        Every guest who signs in at your open houses goes to Follow Up Boss as a “Visited Open House” lead, so
        its action plans start. Find your API key in Follow Up Boss under Admin → API.
      </p>
      {connector.isPending ? (
        <Spinner label="Loading your Follow Up Boss connection…" />
      ) : connector.isError ? (
        <Alert
          tone="error"
          title={errorMessage(connector.error, 'Your Follow Up Boss connection could not be loaded')}
          actions={<Button onPress={() => void connector.refetch()}>Try again</Button>}
        />
      ) : connector.data.connected ? (
        <>
          <div className="webhooks__actions">
            <p role="status">Connected with the key ending in {connector.data.apiKeyLast4}.</p>
            <Button isPending={remove.isPending} onPress={() => remove.mutate()}>
              Disconnect
            </Button>
          </div>
          <FubConnectorStatus connector={connector.data} />
        </>
      ) : (
        <>
          <p className="webhooks__muted">Not connected.</p>
          <FubConnectorStatus connector={connector.data} />
        </>
      )}
      {remove.isError && (
        <Alert tone="error" title={errorMessage(remove.error, 'The key could not be removed')} />
      )}
      <Form
        ref={form.formRef}
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        {form.formError && <Alert tone="error" title={form.formError} />}
        <TextField
          label={connector.data?.connected ? 'New API key' : 'API key'}
          name="apiKey"
          type="password"
          autoComplete="off"
          value={form.values.apiKey}
          onChange={(value) => form.setValue('apiKey', value)}
          errorMessage={form.errors.apiKey}
          description="Stored for sending your leads; never shown again."
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save API key'}
          </Button>
        </FormActions>
      </Form>
    </section>
  )
}
