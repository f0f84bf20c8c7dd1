import { describe, expect, it } from 'vitest'
import { DOOR_SIGN_CALL, doorSignFileName, doorSignText } from './door-sign.ts'
import { guestSignInUrl } from './guest-url.ts'

const oh = {
  id: 41,
  rePropertyId: 7,
  listingREAgentId: 3,
  hostingREAgentId: null as number | null,
  scheduledDate: '2031-03-16' as string | null,
  scheduledStartTime: '1:00 PM',
  scheduledEndTime: '3:00 PM',
  listingREAgentName: 'Lena Lister',
  listingREAgentBrokerage: 'Harbor Realty',
  hostingREAgentName: null as string | null,
  reProperty: {
    propertyAddress1: '12 Elm St',
    propertyAddress2: 'Unit 4',
    propertyCity: 'Roswell',
    propertyState: 'Georgia',
    propertyZipCode: '30075',
    propertyZipPlus4: '1234',
  },
}

describe('the door sign text', () => {
  it('says where, when (the calendar date with its weekday) and who greets, with the call', () => {
    expect(doorSignText(oh)).toEqual({
      brand: 'Porchlight',
      street: '12 Elm St, Unit 4',
      place: 'Roswell, Georgia 30075-1234',
      date: 'Sunday, 03/16/2031',
      time: '1:00 PM – 3:00 PM',
      agentName: 'Lena Lister',
      brokerage: 'Listed by Harbor Realty',
      call: DOOR_SIGN_CALL,
    })
  })

  it('names the host once there is one, and no date while it is flexible', () => {
    const hosted = { ...oh, hostingREAgentId: 9, hostingREAgentName: 'Hugo Host', scheduledDate: null }
    // The brokerage stays the listing's: the sign advertises the listing, whoever hosts it.
    expect(doorSignText(hosted)).toMatchObject({
      agentName: 'Hugo Host',
      brokerage: 'Listed by Harbor Realty',
      date: null,
    })
  })

  it('makes a safe file name from the street', () => {
    expect(doorSignFileName('12 Elm St, Unit #4')).toBe('door-sign-12-elm-st-unit-4.pdf')
    expect(doorSignFileName('   ')).toBe('door-sign-open-house.pdf')
  })
})

describe('the guest sign-in URL', () => {
  it("opens the open house's guest page for the agent at the door", () => {
    expect(guestSignInUrl('https://porch.example/', oh)).toBe(
      'https://porch.example/public/OpenHouseToday?openHouseId=41&rePropertyId=7&reAgentId=3&from=qrcode',
    )
    expect(guestSignInUrl('https://porch.example', { ...oh, hostingREAgentId: 9 })).toContain('reAgentId=9&')
  })
})
