import { Id, PublishLevel } from '@porchlight/shared'
import { z } from 'zod'

/** /openhouses/schedule?rePropertyId=&fromPage=REInventoryView&reInventoryId= (SPEC §2). */
export const NewScheduleSearch = z.object({
  rePropertyId: Id,
  fromPage: z.string().optional().catch(undefined),
  reInventoryId: Id.optional().catch(undefined),
})

/** /openhouses/schedule/{id}/confirm?rePropertyId=&reAgentId=&publish=&method= (SPEC §2). */
export const ConfirmSearch = z.object({
  rePropertyId: Id.optional().catch(undefined),
  reAgentId: Id.optional().catch(undefined),
  /** The level to publish to. */
  publish: PublishLevel.optional().catch(undefined),
  /** How the page was reached: a new schedule, an edit, or a card's Publish. */
  method: z.enum(['new', 'edit', 'publish']).optional().catch(undefined),
})

export const openHouseIdParams = {
  parse: ({ openHouseId }: { openHouseId: string }) => ({ openHouseId: Id.parse(openHouseId) }),
  stringify: ({ openHouseId }: { openHouseId: number }) => ({ openHouseId: String(openHouseId) }),
}
