import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { pushSupported } from './push-browser.ts'
import { pushPublicKeyQueryOptions, useSubscribeThisBrowser } from './queries.ts'

const DISMISSED = 'porchlight.notifications.notNow'

/**
 * The "Enable notifications" step, shown after sign-in (never on a first visit to the site) on a
 * browser that can take pushes and has not been asked yet: it says why before the browser asks.
 */
export function EnableNotifications() {
  const supported = pushSupported() && Notification.permission === 'default'
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED) === '1')
  const { data } = useQuery({ ...pushPublicKeyQueryOptions(), enabled: supported && !dismissed })
  const subscribe = useSubscribeThisBrowser()
  if (!supported || dismissed || !data?.publicKey) return null
  if (subscribe.isSuccess) {
    return (
      <Alert tone="success" title="Notifications are on">
        Offers reach this device. Choose which in My Stuff → Notifications.
      </Alert>
    )
  }
  const notNow = () => {
    localStorage.setItem(DISMISSED, '1')
    setDismissed(true)
  }
  return (
    <Alert
      tone={subscribe.isError ? 'error' : 'info'}
      title="Claim open houses from your lock screen"
      actions={
        <>
          <Button
            variant="primary"
            isPending={subscribe.isPending}
            onPress={() => data.publicKey && subscribe.mutate(data.publicKey)}
          >
            Enable notifications
          </Button>
          <Button variant="ghost" onPress={notNow}>
            Not now
          </Button>
        </>
      }
    >
      {subscribe.isError
        ? subscribe.error.message
        : 'When an open house is offered to you, a notification shows its address and time with a Claim button, so you can claim it before anyone reads the mail.'}
    </Alert>
  )
}
