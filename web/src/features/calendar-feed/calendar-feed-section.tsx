import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { calendarFeedUrlQueryOptions, useRevokeCalendarFeed } from './queries.ts'
import './calendar-feed.css'

/**
 * The agent's secret iCalendar address (issue 14): every upcoming open house it lists or hosts, kept
 * current in Google, Apple or Outlook calendars that subscribe to it. Copy it, or revoke it for a new one.
 */
export function CalendarFeedSection({ agentId }: { agentId: number }) {
  const feed = useQuery(calendarFeedUrlQueryOptions(agentId))
  const revoke = useRevokeCalendarFeed(agentId)
  const [confirming, setConfirming] = useState(false)
  const [copied, setCopied] = useState(false)
  const [renewed, setRenewed] = useState(false)

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied(true)
    } catch {
      // No clipboard here: the address stays selectable in its field.
      setCopied(false)
    }
  }

  return (
    <section className="calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">Calendar feed</h2>
      <p className="calendar-feed__text">
        Subscribe to this address in Google Calendar, Apple Calendar or Outlook to see every upcoming open
        house you list or host; changes and cancellations follow by themselves. Keep it private: anyone with
        the address can read it.
      </p>
      {feed.isPending ? (
        <Spinner label="Loading your calendar address…" />
      ) : feed.isError ? (
        <Alert
          tone="error"
          title={errorMessage(feed.error, 'Your calendar address could not be loaded')}
          actions={<Button onPress={() => void feed.refetch()}>Try again</Button>}
        />
      ) : (
        <>
          <TextField
            label="Calendar address"
            value={feed.data.url}
            isReadOnly
            className="calendar-feed__url"
          />
          <div className="calendar-feed__actions">
            <Button variant="primary" onPress={() => void copy(feed.data.url)}>
              Copy address
            </Button>
            <a className="calendar-feed__subscribe" href={feed.data.url.replace(/^https?:/, 'webcal:')}>
              Subscribe in your calendar app
            </a>
            <Button onPress={() => setConfirming(true)}>Revoke address</Button>
            <span role="status" className="calendar-feed__status">
              {copied ? 'Copied' : renewed ? 'The old address no longer works. This is your new one.' : ''}
            </span>
          </div>
        </>
      )}
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Revoke the calendar address?"
        confirmLabel="Revoke"
        cancelLabel="Keep it"
        isPending={revoke.isPending}
        error={
          revoke.isError ? (
            <Alert tone="error" title={errorMessage(revoke.error, 'The address could not be revoked')} />
          ) : null
        }
        onConfirm={() =>
          revoke.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false)
              setCopied(false)
              setRenewed(true)
            },
          })
        }
      >
        Calendars subscribed to the current address stop updating. You get a new address at once.
      </ConfirmDialog>
    </section>
  )
}
