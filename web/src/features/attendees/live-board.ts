import type { ClientToServerEvents, EventEnvelope, ServerToClientEvents, WatchAck } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { Socket } from 'socket.io-client'
import { agentSocket } from '../../api/socket.ts'
import { prospectKeys } from '../prospects/queries.ts'

/** How long a guest who just signed in stays highlighted on the board (DESIGN.md "Look and feel"). */
const HIGHLIGHT_MS = 8_000

type BoardSocket = Socket<ServerToClientEvents, ClientToServerEvents>

export interface LiveBoard {
  /** signedInAt of the rows to highlight (the event carries no prospect id). */
  fresh: ReadonlySet<string>
  /** The latest text for the polite live region, with a counter so a repeat is read again. */
  announcement: { text: string; n: number }
  /** Whether the server let this agent watch the open house live. */
  watching: 'pending' | 'yes' | 'no'
}

/**
 * The host's live attendee board: joins the open house room (`watch`, again after every reconnect),
 * refetches the attendee list on 'attendee.added' and the feedback summary on 'feedback.submitted',
 * and reports what to highlight and read out.
 */
export function useLiveBoard(openHouseId: number): LiveBoard {
  const queryClient = useQueryClient()
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set())
  const [announcement, setAnnouncement] = useState({ text: '', n: 0 })
  const [watching, setWatching] = useState<LiveBoard['watching']>('pending')

  useEffect(() => {
    let socket: BoardSocket | null = null
    let stopped = false
    const timers = new Set<ReturnType<typeof setTimeout>>()
    const announce = (text: string) => setAnnouncement((a) => ({ text, n: a.n + 1 }))

    const watch = () =>
      socket?.emit('watch', { openHouseId }, (ack: WatchAck) => {
        if (stopped) return
        setWatching(ack.ok ? 'yes' : 'no')
        // Whatever happened between the page's load and joining the room is fetched once now.
        if (ack.ok) {
          void queryClient.invalidateQueries({ queryKey: prospectKeys.attendees(openHouseId) })
          void queryClient.invalidateQueries({ queryKey: prospectKeys.feedback(openHouseId) })
        }
      })

    const onAttendee = (event: EventEnvelope<'attendee.added'>) => {
      if (event.data.openHouseId !== openHouseId) return
      const { signedInAt, firstName, lastInitial } = event.data
      setFresh((set) => new Set(set).add(signedInAt))
      const timer = setTimeout(() => {
        timers.delete(timer)
        setFresh((set) => {
          const next = new Set(set)
          next.delete(signedInAt)
          return next
        })
      }, HIGHLIGHT_MS)
      timers.add(timer)
      announce(`${firstName} ${lastInitial}. just signed in.`)
      void queryClient.invalidateQueries({ queryKey: prospectKeys.attendees(openHouseId) })
    }

    const onFeedback = (event: EventEnvelope<'feedback.submitted'>) => {
      if (event.data.openHouseId !== openHouseId) return
      announce('New feedback received. The feedback summary is updated.')
      void queryClient.invalidateQueries({ queryKey: prospectKeys.feedback(openHouseId) })
    }

    void agentSocket(queryClient).then((connected) => {
      if (stopped) return
      socket = connected as BoardSocket
      socket.on('attendee.added', onAttendee)
      socket.on('feedback.submitted', onFeedback)
      // Rooms do not survive a reconnect: join again each time (missed events come with the refetch
      // api/socket.ts makes after a reconnect).
      socket.on('connect', watch)
      if (socket.connected) watch()
    })

    return () => {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
      socket?.off('attendee.added', onAttendee)
      socket?.off('feedback.submitted', onFeedback)
      socket?.off('connect', watch)
      socket?.emit('unwatch', { openHouseId })
    }
  }, [openHouseId, queryClient])

  return { fresh, announcement, watching }
}
