import {
  ADDRESS_LOCKED_REASON,
  type InventoryItem,
  mayOwnInventory,
  messages,
  OPEN_HOUSE_SCHEDULED,
  PROPERTY_CREATED,
  type SaveInventoryBody,
  UPCOMING_OPEN_HOUSE_REASON,
  type UpdateInventoryBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts'
import type { PropertyService } from '../properties/service.ts'
import type { InventoryRepo, InventoryRow } from './repo.ts'

/** What the policy needs of an inventory item (mayOwnInventory). */
const toFacts = (row: { owningReAgentId: number }) => ({ owningREAgentId: row.owningReAgentId })

export function createInventoryService(db: Db, repo: InventoryRepo, properties: PropertyService) {
  async function toItem(row: InventoryRow): Promise<InventoryItem> {
    return {
      id: row.id,
      owningREAgentId: row.owningReAgentId,
      reProperty: await properties.get(row.rePropertyId),
      reInventoryPropertyStatus: row.reInventoryPropertyStatus,
      // Read from its open houses, never stored: a cancel or a passing day changes it with nothing to write.
      reInventoryOpenHouseStatus: row.hasUpcomingOpenHouse ? OPEN_HOUSE_SCHEDULED : PROPERTY_CREATED,
      reInventoryPropertyDeleteFlag: row.reInventoryPropertyDeleteFlag,
      createdDate: new Date(row.createdDate).toISOString(),
      updatedDate: new Date(row.updatedDate).toISOString(),
    }
  }

  async function owned(agentId: number, id: number): Promise<InventoryRow> {
    const row = await repo.getById(id)
    // One answer for "not yours": another agent's item does not exist for the caller.
    if (!row || !mayOwnInventory({ id: agentId }, toFacts(row))) throw new NotFoundError()
    return row
  }

  /**
   * The item a new open house is saved on, locked until the open house is saved, so a delete or an
   * address edit waits for it. Several open houses may be still to come on one item (a Saturday and a
   * Sunday, issue 32); one per property and date is the database's unique index, which the insert
   * meets in the same statement (decision 037).
   */
  async function lockedForSchedule(id: number, trx: Trx): Promise<number> {
    if (!(await repo.lock(id, trx))) throw new NotFoundError()
    return id
  }

  return {
    async listEligible(agentId: number): Promise<InventoryItem[]> {
      return Promise.all((await repo.listByOwner(agentId)).map(toItem))
    },

    async create(agentId: number, body: z.output<typeof SaveInventoryBody>): Promise<InventoryItem> {
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
      // Just created: no open house on it yet.
      return toItem({ ...row, hasUpcomingOpenHouse: false })
    },

    async get(agentId: number, id: number): Promise<InventoryItem> {
      return toItem(await owned(agentId, id))
    },

    /** The status; and the address, while no open house is scheduled for the property. */
    async update(
      agentId: number,
      id: number,
      body: z.output<typeof UpdateInventoryBody>,
    ): Promise<InventoryItem> {
      const row = await owned(agentId, id)
      const changes = body.rePropertyDTO ?? {}
      await inTransaction(db, async (trx) => {
        await repo.lock(id, trx)
        if (Object.keys(changes).length > 0) {
          const current = await properties.get(row.rePropertyId)
          const changed = Object.entries(changes).some(
            ([field, value]) => value !== undefined && current[field as keyof typeof current] !== value,
          )
          if (changed) {
            if (await repo.hasUpcomingOpenHouse(id, trx))
              throw new ConflictError('INVALID_STATE', ADDRESS_LOCKED_REASON)
            await properties.correct(row.rePropertyId, changes, trx, 'rePropertyDTO.')
          }
        }
        await repo.setStatus(id, body.reInventoryPropertyStatus, trx)
      })
      return toItem(await owned(agentId, id))
    },

    /** SPEC §4: only a 'Property Created' item with no open house still to come may be deleted. */
    async remove(agentId: number, id: number): Promise<void> {
      await owned(agentId, id)
      const deleted = await repo.softDelete(id, agentId, PROPERTY_CREATED)
      if (deleted) return
      if (await repo.hasUpcomingOpenHouse(id))
        throw new ConflictError('INVALID_STATE', UPCOMING_OPEN_HOUSE_REASON)
      throw new ConflictError('INVALID_STATE', messages.inventoryDeleteFailed)
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
        if (!item || !mayOwnInventory({ id: listingId }, toFacts(item)) || item.rePropertyId !== propertyId)
          throw refuse()
        return lockedForSchedule(item.id, trx)
      }
      const held = await repo.holders(propertyId, trx)
      const own = held.find((h) => mayOwnInventory({ id: listingId }, toFacts(h)))
      if (own) return lockedForSchedule(own.id, trx)
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
