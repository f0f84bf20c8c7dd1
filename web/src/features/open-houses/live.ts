import type { EventEnvelope, EventType, OpenHouseDetails, ServerToClientEvents } from '@porchlight/shared'
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import type { Socket } from 'socket.io-client'
import { agentSocket } from '../../api/socket.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { may } from './permissions.ts'
import { type OpenHouseList, openHouseKeys } from './queries.ts'

/** How long a claimed opportunity stays in Search Open Houses, showing who took it (DESIGN.md). */
const CLAIMED_NOTICE_MS = 5_000
/** How long a newly offered opportunity stays highlighted. */
const NEW_NOTICE_MS = 8_000

export type LiveNotice = { kind: 'claimed'; hostingReAgentName: string } | { kind: 'new' }

// A tiny store of what changed live, read by the cards and rows through useSyncExternalStore.
let notices: ReadonlyMap<number, LiveNotice> = new Map()
let announcement = { text: '', n: 0 }
const listeners = new Set<() => void>()
const emit = () => {
  for (const listener of listeners) listener()
}
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function setNotice(id: number, notice: LiveNotice | null) {
  const next = new Map(notices)
  if (notice) next.set(id, notice)
  else next.delete(id)
  notices = next
  emit()
}

/** Says `text` through the polite live region (LiveAnnouncer). */
function announce(text: string) {
  announcement = { text, n: announcement.n + 1 }
  emit()
}

export function useLiveNotice(openHouseId: number): LiveNotice | undefined {
  return useSyncExternalStore(subscribe, () => notices.get(openHouseId))
}

export function useAnnouncement() {
  return useSyncExternalStore(subscribe, () => announcement)
}

type Lists = Array<[readonly unknown[], OpenHouseDetails[] | undefined]>

function cached(queryClient: QueryClient, list: OpenHouseList): Lists {
  return queryClient.getQueriesData<OpenHouseDetails[]>({ queryKey: openHouseKeys.lists(list) })
}

function findIn(queryClient: QueryClient, list: OpenHouseList, id: number): OpenHouseDetails | undefined {
  for (const [, items] of cached(queryClient, list)) {
    const found = items?.find((oh) => oh.id === id)
    if (found) return found
  }
  return undefined
}

function patchLists(
  queryClient: QueryClient,
  lists: OpenHouseList[],
  id: number,
  change: (oh: OpenHouseDetails) => OpenHouseDetails | null,
) {
  for (const list of lists) {
    queryClient.setQueriesData<OpenHouseDetails[]>({ queryKey: openHouseKeys.lists(list) }, (items) =>
      items?.flatMap((oh) => {
        if (oh.id !== id) return [oh]
        const next = change(oh)
        return next ? [next] : []
      }),
    )
  }
}

const street = (oh: OpenHouseDetails) => oh.reProperty.propertyAddress1

/**
 * Applies the open-house socket events (shared/src/events.ts) to the TanStack Query cache, so every
 * list is current without a reload: a published opportunity appears in Search Open Houses, a claimed
 * one shows who took it and then leaves, the listing agent's card turns 'Hosted', a withdrawn one comes
 * back and a canceled one leaves. Reconnects refetch everything (api/socket.ts).
 */
export function useOpenHouseLiveUpdates(agentId: number | undefined) {
  const queryClient = useQueryClient()

  useEffect(() => {
    if (!agentId) return
    let socket: Socket<ServerToClientEvents> | null = null
    let stopped = false
    const timers = new Set<ReturnType<typeof setTimeout>>()
    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        run()
      }, ms)
      timers.add(timer)
    }
    const invalidate = (...lists: OpenHouseList[]) =>
      Promise.all(lists.map((list) => queryClient.invalidateQueries({ queryKey: openHouseKeys.lists(list) })))

    /** Refetches Search Open Houses and highlights `id` if it is now offered to this agent. */
    const offered = async (id: number, why: string) => {
      await invalidate('available', 'upcoming')
      const oh = findIn(queryClient, 'available', id)
      if (!oh || stopped) return
      setNotice(id, { kind: 'new' })
      announce(`${why}: ${street(oh)}, ${oh.reProperty.propertyCity}.`)
      later(NEW_NOTICE_MS, () => {
        if (notices.get(id)?.kind === 'new') setNotice(id, null)
      })
    }

    const handlers: { [T in EventType]?: (event: EventEnvelope<T>) => void } = {
      'opportunity.published': (event) => void offered(event.data.openHouseId, 'New open house to host'),
      'opportunity.withdrawn': (event) => {
        void queryClient.invalidateQueries({ queryKey: openHouseKeys.details(event.data.openHouseId) })
        void offered(event.data.openHouseId, 'Open house available to host again')
      },
      'opportunity.claimed': ({ data }) => {
        const { openHouseId: id, hostingReAgentId, hostingReAgentName } = data
        const mine = findIn(queryClient, 'upcoming', id)
        patchLists(queryClient, ['upcoming', 'past'], id, (oh) => ({
          ...oh,
          hostingREAgentId: hostingReAgentId,
          hostingREAgentName: hostingReAgentName,
          status: oh.openHouseCanceledFlag ? 'Canceled' : 'Hosted',
        }))
        // Told to the listing side (the listing agent, or the teammate who scheduled it for them).
        if (mine && may(mine, 'edit') && hostingReAgentId !== agentId) {
          announce(`${street(mine)} is now hosted by ${hostingReAgentName}.`)
        }
        void queryClient.invalidateQueries({ queryKey: openHouseKeys.details(id) })
        void invalidate('upcoming')
        const offeredHere = findIn(queryClient, 'available', id)
        if (!offeredHere) {
          void invalidate('available')
          return
        }
        // It stays in Search Open Houses for a few seconds, saying who took it, then leaves.
        setNotice(id, { kind: 'claimed', hostingReAgentName })
        announce(`${street(offeredHere)} was claimed by ${hostingReAgentName}.`)
        later(CLAIMED_NOTICE_MS, () => {
          patchLists(queryClient, ['available'], id, () => null)
          setNotice(id, null)
          void invalidate('available')
        })
      },
      'openHouse.canceled': ({ data }) => {
        const id = data.openHouseId
        patchLists(queryClient, ['available'], id, () => null)
        patchLists(queryClient, ['upcoming'], id, (oh) => ({
          ...oh,
          openHouseCanceledFlag: true,
          openHouseCancelReason: data.openHouseCancelReason,
          status: 'Canceled',
        }))
        setNotice(id, null)
        void queryClient.invalidateQueries({ queryKey: openHouseKeys.details(id) })
        void invalidate('upcoming', 'available')
      },
      'openHouse.updated': ({ data }) => {
        void queryClient.invalidateQueries({ queryKey: openHouseKeys.details(data.openHouseId) })
        void invalidate('upcoming', 'available', 'past')
      },
      'stats.changed': () => {
        void queryClient.invalidateQueries({ queryKey: planUtilizationQueryOptions(agentId).queryKey })
      },
    }

    void agentSocket(queryClient).then((connected) => {
      if (stopped) return
      socket = connected as Socket<ServerToClientEvents>
      for (const [type, handler] of Object.entries(handlers)) {
        // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed `on` cannot follow a mapped handler.
        ;(socket as any).on(type, handler)
      }
    })

    return () => {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
      for (const [type, handler] of Object.entries(handlers)) {
        // biome-ignore lint/suspicious/noExplicitAny: as above.
        ;(socket as any)?.off(type, handler)
      }
    }
  }, [agentId, queryClient])
}
