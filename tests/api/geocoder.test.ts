import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'

// A local stand-in for a Nominatim-compatible provider.
const asked: URL[] = []
const provider = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://provider')
  asked.push(url)
  res.setHeader('content-type', 'application/json')
  res.end(
    JSON.stringify([
      {
        display_name: '12 Porch Lane, Roswell, Fulton County, Georgia, 30075-1234, United States',
        lat: '34.02',
        lon: '-84.36',
        address: {
          house_number: '12',
          road: 'Porch Lane',
          city: 'Roswell',
          county: 'Fulton County',
          state: 'Georgia',
          postcode: '30075-1234',
          country_code: 'us',
        },
      },
      {
        display_name: '12 Porch Lane, Guadalajara, Mexico',
        lat: '20.6',
        lon: '-103.3',
        address: { house_number: '12', road: 'Porch Lane', city: 'Guadalajara', country_code: 'mx' },
      },
    ]),
  )
})

let t: TestApp
let bare: TestApp
beforeAll(async () => {
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r))
  const { port } = provider.address() as AddressInfo
  t = await buildTestApp({ env: { GEOCODER_URL: `http://127.0.0.1:${port}/search` } })
  bare = await buildTestApp({ sameAs: t })
})
afterAll(async () => {
  await bare.close()
  await t.close()
  provider.close()
})

describe('address autocomplete', () => {
  it('asks the provider for US and Canadian addresses only and fills the property fields', async () => {
    const me = await makePlannedAgent(t.db)
    const res = await t.call('GET', '/geocoder/search?q=12%20Porch%20Lane', { token: me.token })
    expect(res.status).toBe(200)
    expect(asked.at(-1)?.searchParams.get('countrycodes')).toBe('us,ca')
    expect(res.body).toEqual({
      configured: true,
      data: [
        {
          label: '12 Porch Lane, Roswell, Fulton County, Georgia, 30075-1234, United States',
          propertyAddress1: '12 Porch Lane',
          propertyAddress2: null,
          propertyCity: 'Roswell',
          propertyState: 'Georgia',
          propertyCounty: 'Fulton County',
          propertyZipCode: '30075',
          propertyZipPlus4: '1234',
          propertyCountry: 'United States',
          propertyLatitude: 34.02,
          propertyLongitude: -84.36,
        },
      ],
    })
  })

  it('answers an empty list without a provider, so the address is typed by hand', async () => {
    const me = await makePlannedAgent(t.db)
    const res = await bare.call('GET', '/geocoder/search?q=12%20Porch', { token: me.token })
    expect(res.body).toEqual({ configured: false, data: [] })
  })
})
