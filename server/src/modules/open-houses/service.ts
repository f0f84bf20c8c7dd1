import { createOpenHouseCloning } from './cloning.ts'
import type { OpenHouseDeps } from './deps.ts'
import { createOpenHouseLifecycle } from './lifecycle.ts'
import { createOpenHouseOffers } from './offers.ts'
import { createOpenHouseReads } from './reads.ts'

export type { OpenHouseDeps } from './deps.ts'
export { toDetails, toOpenHouse } from './mapping.ts'

/**
 * The open-house domain: saving, editing and canceling (lifecycle.ts), copies (cloning.ts), offers
 * and claims (offers.ts) and views (reads.ts), each given only the dependencies it uses.
 */
export function createOpenHouseService(d: OpenHouseDeps) {
  return {
    ...createOpenHouseLifecycle(d),
    ...createOpenHouseOffers(d),
    ...createOpenHouseCloning(d),
    ...createOpenHouseReads(d),
  }
}

export type OpenHouseService = ReturnType<typeof createOpenHouseService>
