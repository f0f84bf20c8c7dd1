import type { PublicOpenHouse } from '@porchlight/shared'

// A phone with no signal opens the guest page from its cache (web/build/guest-offline.ts), but the
// open house of a QR code it never scanned before is not there: the visitor still signs in, and the
// sign-in waits on the phone until it can be sent (pending-sign-ins.ts). Its stand-in knows only the
// id: no address, no custom questions and no agent to name, so no consent is asked for (none is given);
// the server checks the sign-in against the real open house when it arrives.

const standIns = new WeakSet<PublicOpenHouse>()

export const OFFLINE_SIGN_IN_NOTE =
  'You are offline. You can still sign in: your sign-in is saved on this phone and sent as soon as you are back online.'

/** The open house `id` as far as a phone without a signal knows it. */
export function offlineStandIn(id: number): PublicOpenHouse {
  const standIn: PublicOpenHouse = {
    id,
    rePropertyId: 0,
    openHouseFor: '',
    scheduledDate: '',
    scheduledStartTime: '',
    scheduledEndTime: '',
    openHouseTimezone: '',
    openHouseCanceledFlag: false,
    endsAt: null,
    reProperty: {
      id: 0,
      propertyAddress1: '',
      propertyAddress2: null,
      propertyCity: '',
      propertyState: '',
      propertyCounty: null,
      propertyZipCode: '',
      propertyZipPlus4: null,
      propertyCountry: '',
      propertyLatitude: null,
      propertyLongitude: null,
      propertyType: '',
      completePropertyAddress: '',
      createdDate: '',
      updatedDate: '',
    },
    listingREAgentName: '',
    hostingREAgentName: null,
    customQuestions: [],
  }
  standIns.add(standIn)
  return standIn
}

/** True for an open house the phone could not load, only stood in for. */
export const isStandIn = (oh: PublicOpenHouse) => standIns.has(oh)
