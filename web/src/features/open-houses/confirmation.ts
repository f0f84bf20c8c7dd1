import { type OpenHouseDetails, PublishLevel } from '@porchlight/shared'

/** Where the agent lands after an open house is saved: its confirmation page (publish, QR, door sign). */
export function confirmationOf(oh: OpenHouseDetails, method: 'new' | 'edit' | 'publish') {
  return {
    to: '/openhouses/schedule/$openHouseId/confirm',
    params: { openHouseId: oh.id },
    search: {
      rePropertyId: oh.rePropertyId,
      reAgentId: oh.listingREAgentId,
      publish: PublishLevel.safeParse(oh.publishLevel).data,
      method,
    },
  } as const
}
