import {
  type Actor,
  type OpenHouse,
  type OpenHouseDetails,
  openHousePermissions,
  openHouseStatus,
} from '@porchlight/shared'
import { toOpenHouseFacts } from '../../policy/access.ts'
import { toProperty } from '../properties/service.ts'
import type { OpenHouseDetailsRow, OpenHouseRow } from './repo.ts'

export function toOpenHouse(row: OpenHouseRow): OpenHouse {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())
  return {
    id: row.id,
    rePropertyId: row.rePropertyId,
    listingREAgentId: row.listingReAgentId,
    hostingREAgentId: row.hostingReAgentId,
    scheduledByREAgentId: row.scheduledByReAgentId,
    openHouseFor: row.openHouseFor,
    mlsId: row.mlsId,
    listingURL: row.listingUrl,
    scheduledDate: row.scheduledDate,
    scheduledStartTime: row.scheduledStartTime,
    scheduledEndTime: row.scheduledEndTime,
    openHouseTimezone: row.openHouseTimezone,
    openHousePreparationDate: row.openHousePreparationDate,
    balloonsPutOutFlag: row.balloonsPutOutFlag,
    snackServedFlag: row.snackServedFlag,
    mealServedFlag: row.mealServedFlag,
    drinkServedFlag: row.drinkServedFlag,
    openHouseInstructions: row.openHouseInstructions,
    publishLevel: row.publishLevel,
    publishLevelId: row.publishLevelId,
    published: row.publishedAt !== null,
    autoCloneOpenHouseFlag: row.autoCloneOpenHouseFlag,
    followUpMailFlag: row.followUpMailFlag,
    emailIdForSharingOHFeedback: row.emailIdForSharingOhFeedback,
    openHouseCanceledFlag: row.openHouseCanceledFlag,
    openHouseCancelReason: row.openHouseCancelReason,
    reInventoryId: row.reInventoryId,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    createdDate: iso(row.createdDate) ?? '',
    updatedDate: iso(row.updatedDate) ?? '',
  }
}

/** The open house with its supporting data, and what `viewer` may do with it (none: a job or the public). */
export function toDetails(row: OpenHouseDetailsRow, viewer?: Actor): OpenHouseDetails {
  const oh = toOpenHouse(row)
  return {
    ...oh,
    reProperty: toProperty(row.property as never),
    listingREAgentName: row.listingName,
    listingREAgentBrokerage: row.listingBrokerage,
    hostingREAgentName: row.hostingName,
    scheduledByREAgentName: row.schedulerName,
    status: openHouseStatus(oh),
    permissions: viewer ? openHousePermissions(viewer, toOpenHouseFacts(row)) : [],
    copyOf: row.isCopy ? { id: row.clonedFromOpenHouseId ?? null, scheduledDate: row.copyOfDate } : null,
  }
}
