import { PUSH_EVENT_LABELS, PUSH_EVENTS, type PushEvent } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { pushSupported } from './push-browser.ts'
import {
  notificationSettingsQueryOptions,
  pushPublicKeyQueryOptions,
  pushSubscriptionsQueryOptions,
  useDeletePushSubscription,
  useSaveNotificationSettings,
  useSubscribeThisBrowser,
} from './queries.ts'

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** My Stuff → Notifications: which events reach this agent's devices, quiet hours, and the devices. */
export function NotificationsSection() {
  const settings = useQuery(notificationSettingsQueryOptions())
  const devices = useQuery(pushSubscriptionsQueryOptions())
  const key = useQuery(pushPublicKeyQueryOptions())
  const save = useSaveNotificationSettings()
  const remove = useDeletePushSubscription()
  const subscribe = useSubscribeThisBrowser()
  const [events, setEvents] = useState<PushEvent[]>([])
  const [quiet, setQuiet] = useState(false)
  const [start, setStart] = useState('22:00')
  const [end, setEnd] = useState('07:00')

  useEffect(() => {
    if (!settings.data) return
    setEvents(settings.data.events)
    setQuiet(settings.data.quietHours !== null)
    if (settings.data.quietHours) {
      setStart(settings.data.quietHours.start)
      setEnd(settings.data.quietHours.end)
    }
  }, [settings.data])

  if (settings.isPending || devices.isPending) return <Spinner label="Loading your notifications…" />
  if (settings.isError || devices.isError) {
    return (
      <Alert tone="error" title="Notifications could not be loaded">
        Please try again in a moment.
      </Alert>
    )
  }
  const toggle = (event: PushEvent, on: boolean) =>
    setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)))

  return (
    <section aria-labelledby="notifications-title" className="notifications">
      <h2 id="notifications-title">Notifications</h2>
      <p>Porchlight tells your devices of these, showing only an address and a time on a locked screen.</p>
      <fieldset>
        <legend>Tell me when</legend>
        {PUSH_EVENTS.map((event) => (
          <Checkbox key={event} isSelected={events.includes(event)} onChange={(on) => toggle(event, on)}>
            {PUSH_EVENT_LABELS[event]}
          </Checkbox>
        ))}
      </fieldset>
      <Checkbox isSelected={quiet} onChange={setQuiet}>
        Quiet hours (a claim I won still shows)
      </Checkbox>
      {quiet && (
        <div className="notifications__quiet">
          <TextField label="From" type="time" value={start} onChange={setStart} />
          <TextField label="Until" type="time" value={end} onChange={setEnd} />
        </div>
      )}
      <Button
        variant="primary"
        isPending={save.isPending}
        onPress={() =>
          save.mutate({
            events,
            quietHours: quiet ? { start, end } : null,
            timeZone: settings.data.timeZone === 'UTC' ? browserZone() : settings.data.timeZone,
          })
        }
      >
        Save
      </Button>
      {save.isSuccess && <Alert tone="success" title="Saved" />}
      {save.isError && (
        <Alert tone="error" title="Not saved">
          {save.error.message}
        </Alert>
      )}

      <h3>Devices</h3>
      {devices.data.length === 0 ? (
        <p>No device gets notifications yet.</p>
      ) : (
        <ul className="notifications__devices">
          {devices.data.map((d) => (
            <li key={d.id}>
              <span>
                {d.service} · added {new Date(d.createdDate).toLocaleDateString('en-US')}
              </span>
              <Button
                size="sm"
                variant="ghost"
                onPress={() => remove.mutate(d.id)}
                aria-label={`Remove ${d.service}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {pushSupported() && key.data?.publicKey && (
        <Button
          isPending={subscribe.isPending}
          onPress={() => key.data?.publicKey && subscribe.mutate(key.data.publicKey)}
        >
          Enable notifications on this device
        </Button>
      )}
      {subscribe.isError && (
        <Alert tone="error" title="Notifications not enabled">
          {subscribe.error.message}
        </Alert>
      )}
    </section>
  )
}
