/**
 * Open houses this tab has just acted on (saved, published, claimed, withdrawn, canceled). The live
 * event of the agent's own action reaches it too, often before the HTTP answer; its screen already
 * says what happened, so the live bridge does not toast it back (issue 32: toasts echoed the agent's
 * own actions). Kept briefly: a change by someone else a little later is toasted as usual.
 */
const OWN_ACTION_MS = 10_000
const actedAt = new Map<number, number>()

export function noteOwnAction(openHouseId: number) {
  actedAt.set(openHouseId, Date.now())
}

export function isOwnAction(openHouseId: number): boolean {
  const at = actedAt.get(openHouseId)
  return at !== undefined && Date.now() - at < OWN_ACTION_MS
}
