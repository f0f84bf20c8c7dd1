import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

// Roles are granted, never typed (decision 028): a verified Team Lead grants and revokes them on its
// Firm Members tab; an agent's own profile shows its role, read-only.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

describe('roles in the browser', () => {
  it('lets a verified Team Lead grant the role an agent asked for, and shows who set it', async () => {
    const firm = `FIRM-${randomBytes(4).toString('hex')}`
    const lead = await makePlannedAgent(t.db, {
      role: 'Team Lead',
      brokerFirmLicense: firm,
      firstName: 'Lee',
      lastName: 'Lead',
    })
    const vera = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Vera',
      lastName: 'Verified',
    })
    await t.db
      .updateTable('reAgent')
      .set({ requestedRole: 'Admin Team Member' })
      .where('id', '=', vera.agent.id)
      .execute()

    // Vera's own profile: the role held, the one asked for, and no way to type another.
    const veraPage = await signedIn(vera)
    await veraPage.goto(`${t.url}/mystuff`)
    await veraPage.getByText('Admin Team Member (a verified Team Lead of your firm grants it)').waitFor()
    await veraPage.goto(`${t.url}/mystuff/${vera.agent.id}/edit`)
    const role = veraPage.getByRole('textbox', { name: 'Role' })
    await role.waitFor()
    expect(await role.inputValue()).toBe('Real Estate Agent')
    expect(await role.getAttribute('readonly')).not.toBeNull()

    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=firmMembers`)
    const verified = page.getByRole('list', { name: 'Verified members' })
    const row = verified.getByRole('listitem').filter({ hasText: 'Vera Verified' })
    await row.getByText('Real Estate Agent · asked for Admin Team Member').waitFor()
    await expectAccessible(page, 'Firm Members with role choices', { alsoAtPhoneWidth: true })

    await row.getByRole('button', { name: 'Role of Vera Verified' }).click()
    await page.getByRole('option', { name: 'Admin Team Member' }).click()
    await row.getByRole('button', { name: 'Grant Admin Team Member to Vera Verified' }).click()
    await page.getByRole('status').filter({ hasText: 'Vera Verified is now Admin Team Member.' }).waitFor()
    await row.getByText('Role set by Lee Lead on').waitFor()
    expect(await row.getByText('asked for').count()).toBe(0)
    const held = await t.db
      .selectFrom('reAgent')
      .select('reAgentRole')
      .where('id', '=', vera.agent.id)
      .executeTakeFirstOrThrow()
    expect(held.reAgentRole).toBe('Admin Team Member')

    // Vera, now an Admin Team Member, decides on requests but grants nothing: no role choices for her.
    await veraPage.goto(`${t.url}/mystuff?activeSection=firmMembers`)
    await veraPage.getByRole('list', { name: 'Verified members' }).getByText('Lee Lead').waitFor()
    expect(await veraPage.getByRole('button', { name: /^Role of / }).count()).toBe(0)
  }, 60_000)
})
