import {
  type InventoryItem,
  messages,
  PROPERTY_CREATED,
  type SaveInventoryBody,
  type UpdateInventoryBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts'
import type { PropertyService } from '../properties/service.ts'
import type { InventoryRepo, InventoryRow } from './repo.ts'

export function createInventoryService(db: Db, repo: InventoryRepo, properties: PropertyService) {
  async function toItem(row: InventoryRow): Promise<InventoryItem> {
    return {
      id: row.id,
      owningREAgentId: row.owningReAgentId,
      reProperty: await properties.get(row.rePropertyId),
      reInventoryPropertyStatus: row.reInventoryPropertyStatus,
      reInventoryOpenHouseStatus: row.reInventoryOpenHouseStatus,
      reInventoryPropertyDeleteFlag: row.reInventoryPropertyDeleteFlag,
      createdDate: new Date(row.createdDate).toISOString(),
      updatedDate: new Date(row.updatedDate).toISOString(),
    }
  }

  async function owned(agentId: number, id: number): Promise<InventoryRow> {
    const row = await repo.getById(id)
    if (!row) throw new NotFoundError()
    // One answer for "not yours": another agent's item does not exist for the caller.
    if (row.owningReAgentId !== agentId) throw new NotFoundError()
    return row
  }

  return {
    async listEligible(agentId: number): Promise<InventoryItem[]> {
      return Promise.all((await repo.listByOwner(agentId)).map(toItem))
    },

    async create(agentId: number, body: z.output<typeof SaveInventoryBody>): Promise<InventoryItem> {
      if (body.owningREAgentId !== agentId) throw new ForbiddenError('You can only add to your own inventory')
      const row = await inTransaction(db, async (trx) => {
        const property = await properties.create(agentId, body.rePropertyDTO, trx)
        return repo.create(
          {
            owningReAgentId: agentId,
            rePropertyId: property.id,
            reInventoryPropertyStatus: body.reInventoryPropertyStatus,
          },
          trx,
        )
      })
      return toItem(row)
    },

    async get(agentId: number, id: number): Promise<InventoryItem> {
      return toItem(await owned(agentId, id))
    },

    async update(
      agentId: number,
      id: number,
      body: z.output<typeof UpdateInventoryBody>,
    ): Promise<InventoryItem> {
      const row = await owned(agentId, id)
      const updated = await inTransaction(db, async (trx) => {
        if (body.rePropertyDTO && Object.keys(body.rePropertyDTO).length > 0) {
          await properties.update(row.rePropertyId, body.rePropertyDTO, trx)
        }
        return repo.setStatus(id, body.reInventoryPropertyStatus, trx)
      })
      return toItem(updated)
    },

    /** SPEC §4: only a 'Property Created' item may be deleted. */
    async remove(agentId: number, id: number): Promise<void> {
      await owned(agentId, id)
      const deleted = await repo.softDelete(id, agentId, PROPERTY_CREATED)
      if (!deleted) throw new ConflictError('INVALID_STATE', messages.inventoryDeleteFailed)
    },

    async ownedItem(agentId: number, id: number): Promise<InventoryRow> {
      return owned(agentId, id)
    },

    /**
     * The listing agent's inventory item a new open house is for. A property the scheduler has just
     * typed in (SPEC §2 "a property added for scheduling"), in nobody's inventory yet, joins the listing
     * agent's inventory; any other property is refused, whoever owns it.
     */
    async itemForSchedule(
      schedulerId: number,
      listingId: number,
      propertyId: number,
      inventoryId: number | null,
      trx: Trx,
    ): Promise<number> {
      const refuse = () =>
        new ValidationError([{ field: 'rePropertyId', message: messages.propertyNotInInventory }])
      if (inventoryId !== null) {
        const item = await repo.getById(inventoryId, trx)
        if (!item || item.owningReAgentId !== listingId || item.rePropertyId !== propertyId) throw refuse()
        return item.id
      }
      const held = await repo.holders(propertyId, trx)
      const own = held.find((h) => h.owningReAgentId === listingId)
      if (own) return own.id
      if (held.length > 0 || !(await properties.createdBy(propertyId, schedulerId, trx))) throw refuse()
      const item = await repo.create(
        { owningReAgentId: listingId, rePropertyId: propertyId, reInventoryPropertyStatus: PROPERTY_CREATED },
        trx,
      )
      return item.id
    },
  }
}

export type InventoryService = ReturnType<typeof createInventoryService>
