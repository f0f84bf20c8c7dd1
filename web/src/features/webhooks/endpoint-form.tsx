import {
  type CreatedWebhookEndpoint,
  SaveWebhookEndpointBody,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { agentTeamsQueryOptions } from '../teams/queries.ts'
import { useSaveWebhookEndpoint } from './queries.ts'

const initial = () => ({
  url: '',
  description: '',
  events: [] as WebhookEvent[],
  teamId: null as number | null,
})
const OWN = 'own'

/** The active teams the agent leads or co-leads: it may add an endpoint that hears everyone in them. */
function useLedTeams(agentId: number) {
  const teams = useQuery(agentTeamsQueryOptions(agentId))
  return (teams.data ?? []).filter(
    (team) => team.reTeamActiveFlag && (team.reTeamLeadId === agentId || team.reCoTeamLeadId === agentId),
  )
}

/** Registers an endpoint; its signing secret is shown once, right here, with a copy button. */
export function EndpointForm({ agentId }: { agentId: number }) {
  const save = useSaveWebhookEndpoint(agentId)
  const form = useForm(initial)
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null)
  const ledTeams = useLedTeams(agentId)

  const toggle = (event: WebhookEvent, on: boolean) =>
    form.setValue(
      'events',
      on ? [...form.values.events, event] : form.values.events.filter((e) => e !== event),
    )

  const submit = () => {
    const body = form.parse(SaveWebhookEndpointBody)
    if (!body) return
    save.mutate(body, {
      onSuccess: (answer) => {
        setCreated(answer)
        form.setValue('url', '')
        form.setValue('description', '')
        form.setValue('events', [])
        form.setValue('teamId', null)
      },
      onError: (error) =>
        form.showError(formFailure(error, "The endpoint couldn't be saved. Please try again.")),
    })
  }

  return (
    <section className="webhooks__add" aria-labelledby="webhooks-add-title">
      <h3 id="webhooks-add-title">Add an endpoint</h3>
      {created && <SecretOnce secret={created.secret} onDone={() => setCreated(null)} />}
      <Form
        ref={form.formRef}
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        {form.formError && <Alert tone="error" title={form.formError} />}
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          isRequired
          value={form.values.url}
          onChange={(value) => form.setValue('url', value)}
          errorMessage={form.errors.url}
          description="The https:// address of your receiver; Porchlight POSTs signed JSON to it."
        />
        {ledTeams.length > 0 && (
          <Select
            label="Whose events"
            name="teamId"
            value={form.values.teamId === null ? OWN : String(form.values.teamId)}
            onChange={(key) => form.setValue('teamId', key === OWN ? null : Number(key))}
            errorMessage={form.errors.teamId}
            description="A team's endpoint hears the events of everyone in the team, with guests' email and phone masked: those stay with the agent at the door."
          >
            <SelectItem id={OWN}>Mine</SelectItem>
            {ledTeams.map((team) => (
              <SelectItem key={team.id} id={String(team.id)}>
                {`Everyone in ${team.reTeamName}`}
              </SelectItem>
            ))}
          </Select>
        )}
        <TextField
          label="Description"
          name="description"
          value={form.values.description}
          onChange={(value) => form.setValue('description', value)}
          errorMessage={form.errors.description}
        />
        <fieldset className="webhooks__events" data-invalid={form.errors.events ? true : undefined}>
          <legend>Events to send</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox
              key={event}
              isSelected={form.values.events.includes(event)}
              onChange={(on) => toggle(event, on)}
              isInvalid={Boolean(form.errors.events)}
            >
              {WEBHOOK_EVENT_LABELS[event]} <code>{event}</code>
            </Checkbox>
          ))}
          {form.errors.events && (
            <p className="webhooks__error" role="alert">
              {form.errors.events}
            </p>
          )}
        </fieldset>
        <FormActions>
          <Button type="submit" variant="primary" isPending={save.isPending}>
            {save.isPending ? 'Adding…' : 'Add endpoint'}
          </Button>
        </FormActions>
      </Form>
    </section>
  )
}

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret)
      setCopied(true)
    } catch {
      // No clipboard here: the secret stays selectable in its field.
    }
  }
  return (
    <Alert
      tone="success"
      title="Endpoint added. Copy its signing secret now: it is shown only once."
      actions={
        <>
          <Button variant="primary" onPress={() => void copy()}>
            Copy secret
          </Button>
          <Button onPress={onDone}>I saved it</Button>
          <span role="status" className="webhooks__status">
            {copied ? 'Copied' : ''}
          </span>
        </>
      }
    >
      <TextField label="Signing secret" value={secret} isReadOnly className="webhooks__secret" />
      <p>Your receiver checks each request's webhook-signature with it (Standard Webhooks).</p>
    </Alert>
  )
}
