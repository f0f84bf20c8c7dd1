import type { EventData, EventEnvelope } from '@porchlight/shared'

type AttendeeAdded = EventData['attendee.added']

interface PublicBoardHandlers {
  onAttendee: (attendee: AttendeeAdded) => void
  /** The connection came back after a drop: events may have been missed, so reload the list. */
  onResync: () => void
}

const RETRY_MS = [1_000, 2_000, 5_000, 10_000]

/**
 * Joins the open house's public room (the guest socket's auth is `{openHouseId}`) and reports each
 * 'attendee.added'. A few lines of the socket.io v4 protocol over a plain WebSocket stand in for
 * socket.io-client, which would break the guest pages' budget (DESIGN.md ≤ 80 KB gzipped): measured,
 * it adds a 12.5 KB gzipped chunk and takes the landing page from 79.0 to 91.3 KB. The
 * protocol used: Engine.IO open ('0'), ping ('2') → pong ('3'), Socket.IO connect ('40' + auth),
 * event ('42' + [name, envelope]). Reconnects with backoff until stopped. Returns the stop function.
 */
export function watchPublicAttendees(openHouseId: number, handlers: PublicBoardHandlers): () => void {
  let socket: WebSocket | null = null
  let stopped = false
  let attempts = 0
  let connectedOnce = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const open = () => {
    if (stopped) return
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
    const ws = new WebSocket(`${scheme}://${window.location.host}/socket.io/?EIO=4&transport=websocket`)
    socket = ws
    ws.onmessage = ({ data }) => {
      if (typeof data !== 'string') return
      if (data.startsWith('0')) ws.send(`40${JSON.stringify({ openHouseId })}`)
      else if (data === '2') ws.send('3')
      else if (data.startsWith('40')) {
        if (connectedOnce) handlers.onResync()
        connectedOnce = true
        attempts = 0
      } else if (data.startsWith('42')) {
        try {
          const [name, envelope] = JSON.parse(data.slice(2)) as [
            string,
            Partial<EventEnvelope<'attendee.added'>>,
          ]
          if (name === 'attendee.added' && envelope?.data?.openHouseId === openHouseId) {
            handlers.onAttendee(envelope.data)
          }
        } catch {
          // A frame this page cannot read is skipped; the next reload shows the list anyway.
        }
      }
    }
    ws.onclose = () => {
      if (socket !== ws || stopped) return
      socket = null
      timer = setTimeout(open, RETRY_MS[Math.min(attempts++, RETRY_MS.length - 1)])
    }
  }

  // A phone that comes back online reconnects at once rather than waiting for the backoff.
  const online = () => {
    if (socket || stopped) return
    clearTimeout(timer)
    open()
  }
  window.addEventListener('online', online)
  open()

  return () => {
    stopped = true
    clearTimeout(timer)
    window.removeEventListener('online', online)
    socket?.close()
    socket = null
  }
}
