import type { EventData, OpenHouseDetails } from '@porchlight/shared'
import type { QueryClient } from '@tanstack/react-query'
import type { LiveContext } from '../../live/types.ts'
import { isOwnAction } from './own-actions.ts'
import { may } from './permissions.ts'
import { type OpenHouseList, openHouseKeys } from './queries.ts'

// The open-house cache updates of the live bridge (live/events.ts): a published opportunity appears
// in Search Open Houses highlighted, a claimed one shows who took it and then leaves, the listing
// agent's card turns 'Hosted', a canceled one leaves.

/** How long a claimed opportunity stays in Search Open Houses, showing who took it (DESIGN.md). */
const CLAIMED_NOTICE_MS = 5_000
/** How long a newly offered opportunity stays highlighted. */
const NEW_NOTICE_MS = 8_000

function findIn(queryClient: QueryClient, list: OpenHouseList, id: number): OpenHouseDetails | undefined {
  for (const [, items] of queryClient.getQueriesData<OpenHouseDetails[]>({
    queryKey: openHouseKeys.lists(list),
  })) {
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

/** The open house as a screen of this agent shows it (a list or its details), if one does. */
function known(queryClient: QueryClient, id: number): OpenHouseDetails | undefined {
  return (
    queryClient.getQueryData<OpenHouseDetails>(openHouseKeys.details(id)) ??
    findIn(queryClient, 'upcoming', id) ??
    findIn(queryClient, 'available', id) ??
    findIn(queryClient, 'past', id)
  )
}

/** Once Search Open Houses has refetched, highlights `id` and says why, if it is now offered here. */
export async function highlightOffered(live: LiveContext, id: number, why: string): Promise<boolean> {
  await live.refetched
  const oh = findIn(live.queryClient, 'available', id)
  if (!oh) return false
  live.setNotice(id, { kind: 'new' })
  if (!isOwnAction(id)) live.announce(`${why}: ${street(oh)}, ${oh.reProperty.propertyCity}.`)
  live.later(NEW_NOTICE_MS, () => {
    if (live.notice(id)?.kind === 'new') live.setNotice(id, null)
  })
  return true
}

/**
 * The host gave the open house back: offered again where it is offered, and the listing side (its
 * list, or the board) is told it has no host now.
 */
export async function showWithdrawn(live: LiveContext, data: EventData['opportunity.withdrawn']) {
  const id = data.openHouseId
  const before = known(live.queryClient, id)
  if (await highlightOffered(live, id, 'Open house available to host again')) return
  if (before && may(before, 'edit') && !isOwnAction(id))
    live.announce(`${street(before)} has no host now: the host withdrew.`)
}

/**
 * The listing side's card turns 'Hosted' (and is told who hosts); in Search Open Houses the card stays
 * a few seconds saying who took it, then leaves.
 */
export function showClaim(live: LiveContext, data: EventData['opportunity.claimed']) {
  const { queryClient } = live
  const { openHouseId: id, hostingReAgentId, hostingReAgentName } = data
  const mine =
    findIn(queryClient, 'upcoming', id) ??
    queryClient.getQueryData<OpenHouseDetails>(openHouseKeys.details(id))
  patchLists(queryClient, ['upcoming', 'past'], id, (oh) => ({
    ...oh,
    hostingREAgentId: hostingReAgentId,
    hostingREAgentName: hostingReAgentName,
    status: oh.openHouseCanceledFlag ? 'Canceled' : 'Hosted',
  }))
  // Told to the listing side (the listing agent, or the teammate who scheduled it for them).
  if (mine && may(mine, 'edit') && hostingReAgentId !== live.agentId) {
    live.announce(`${street(mine)} is now hosted by ${hostingReAgentName}.`)
  }
  const offeredHere = findIn(queryClient, 'available', id)
  if (!offeredHere) {
    void live.invalidate(openHouseKeys.lists('available'))
    return
  }
  // Nobody can claim it any more: the card's Claim button goes at once, for the seconds it stays.
  patchLists(queryClient, ['available'], id, (oh) => ({
    ...oh,
    hostingREAgentId: hostingReAgentId,
    hostingREAgentName: hostingReAgentName,
    status: 'Hosted',
  }))
  live.setNotice(id, { kind: 'claimed', hostingReAgentName })
  // The winner's own screen says it claimed it; the toast is for the others who watched.
  if (hostingReAgentId !== live.agentId) {
    live.announce(`${street(offeredHere)} was claimed by ${hostingReAgentName}.`)
  }
  live.later(CLAIMED_NOTICE_MS, () => {
    patchLists(queryClient, ['available'], id, () => null)
    live.setNotice(id, null)
    void live.invalidate(openHouseKeys.lists('available'))
  })
}

/** A canceled open house leaves Search Open Houses and shows 'Canceled' in the agent's own list. */
export function showCanceled(live: LiveContext, data: EventData['openHouse.canceled']) {
  const id = data.openHouseId
  const oh = known(live.queryClient, id)
  if (oh && !oh.openHouseCanceledFlag && !isOwnAction(id)) live.announce(`${street(oh)} was canceled.`)
  patchLists(live.queryClient, ['available'], id, () => null)
  patchLists(live.queryClient, ['upcoming'], id, (oh) => ({
    ...oh,
    openHouseCanceledFlag: true,
    openHouseCancelReason: data.openHouseCancelReason,
    status: 'Canceled',
  }))
  live.setNotice(id, null)
}

/** An open house on screen changed (its date, times or details): says which, as the lists refetch. */
export function showUpdated(live: LiveContext, data: EventData['openHouse.updated']) {
  const oh = known(live.queryClient, data.openHouseId)
  if (oh && !isOwnAction(data.openHouseId)) live.announce(`${street(oh)} was updated.`)
}
