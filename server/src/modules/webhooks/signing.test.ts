import { describe, expect, it } from 'vitest'
import { answerLines, fubVisitEvent } from './fub.ts'
import { newWebhookSecret, signWebhook } from './post.ts'
import { isPrivateAddress } from './targets.ts'

describe('webhook signatures', () => {
  it("signs as the Standard Webhooks specification's own example does", () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
  })

  it('makes secrets of 24 random bytes behind whsec_', () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(newWebhookSecret()).not.toBe(secret)
  })
})

describe('private targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.20.1.1',
    '192.168.1.20',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.1.1',
    // Public IPv4 addresses in IPv6 clothing are refused too: a receiver is named by its own address.
    '::ffff:93.184.216.34',
    '::93.184.216.34',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('lets %s through', (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })

  it("refuses a public address that is this host's own", () => {
    const own = new Set(['93.184.216.34', '2606:4700:4700:0:0:0:0:1111'])
    expect(isPrivateAddress('93.184.216.34', own)).toBe(true)
    expect(isPrivateAddress('2606:4700:4700::1111', own)).toBe(true)
    expect(isPrivateAddress('8.8.8.8', own)).toBe(false)
  })
})

describe('the Follow Up Boss event', () => {
  it("reads the visitor's answers, its own questions too, one a line", () => {
    expect(
      answerLines({
        homeBuyingTimelines: '1-3 Months',
        workingWithREAgentFlag: false,
        bestTimeToContact: null,
        customAnswers: { 'Pre-approved?': 'Yes' },
      }),
    ).toEqual(['Buying timeline: 1-3 Months', 'Working with an agent: No', 'Pre-approved?: Yes'])
  })

  it('leaves out a phone the visitor did not give', () => {
    const event = fubVisitEvent({
      prospect: {
        prospectFirstName: 'Ann',
        prospectLastName: 'Lee',
        prospectEmailId: 'ann@example.com',
        prospectPhoneNumber: null,
      },
      answers: null,
      openHouse: { mlsId: null, listingUrl: null, scheduledDate: null },
      address: '1 Main St, Macon, GA 31201',
      occurredAt: new Date('2026-11-29T15:04:00Z'),
      property: {
        propertyAddress1: '1 Main St',
        propertyAddress2: null,
        propertyCity: 'Macon',
        propertyState: 'GA',
        propertyZipCode: '31201',
      },
    })
    expect(event).toMatchObject({
      type: 'Visited Open House',
      person: { phones: [] },
      property: { street: '1 Main St', city: 'Macon', state: 'GA', code: '31201' },
    })
    expect(event.property).not.toHaveProperty('mlsNumber')
  })
})
