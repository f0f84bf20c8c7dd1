import { messages } from '@porchlight/shared'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { expectAccessible, launchBrowser } from '../support/browser.ts'
import { makeAgent, makeValidatedUser, validAgentFields } from '../support/factories.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink
let browser: Browser
let context: BrowserContext
let page: Page
let pageErrors: string[] = []

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ web: true, env: { SMTP_URL: smtp.url } })
  t.startWorker()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
  await smtp?.close()
})

// Each test is a new visitor: its own local and session storage.
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  // A step that fails says which one, well inside the test's own time-out.
  context.setDefaultTimeout(8_000)
  page = await context.newPage()
  pageErrors = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
})
afterEach(async () => {
  await context.close()
  expect(pageErrors).toEqual([])
})

let n = 0
const freshEmail = () => `browser${++n}-${Date.now()}@example.com`

/** A validated user with an agent profile (first name Jordan) and the free Solo plan, made through the API. */
async function makeAgentWithPlan() {
  const user = await makeValidatedUser(t, freshEmail())
  const agent = await t.call('POST', '/reagentmgmt/saveREAgent', {
    token: user.token,
    body: { ...validAgentFields(user.email, { reAgentFirstName: 'Jordan' }), porchlightUserId: user.userId },
  })
  expect(agent.status).toBe(201)
  const plans = await t.call('GET', '/pricingplanmgmt/getAllOfferedPricingPlans/0')
  const solo = plans.body.data.find((plan: { pricingPlanTitle: string }) => plan.pricingPlanTitle === 'Solo')
  const purchase = await t.call('POST', '/pricingplanmgmt/addPricingPlanToREAgent', {
    token: user.token,
    body: { pricingPlanId: solo.id, reAgentId: agent.body.data.id, pricingPlanFrequency: 'Monthly' },
  })
  expect(purchase.status).toBe(201)
  return { ...user, agentId: agent.body.data.id as number }
}

/** A text input by its accessible name, exactly (labels carry a visual '*' for required). */
const field = (name: string) => page.getByRole('textbox', { name, exact: true })

async function signInThroughForm(email: string, password: string) {
  await field('Email Id').fill(email)
  await field('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

const heading = () => page.getByRole('heading', { level: 1 }).textContent()

/**
 * Waits for an in-app navigation to land: the address, then the new page's h1. The address
 * changes first, while the next page's code may still be loading and the old form still shows.
 */
async function arrive(url: string | RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(heading).toBe(title)
}

/** Starts the visit already signed in, as if an earlier visit had stored the token. */
async function useToken(token: string) {
  await page.goto(t.url)
  await page.evaluate((value) => localStorage.setItem('porchlightUserToken', value), token)
}

/** Opens a react-aria select by its label and picks an option. */
async function choose(label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

describe('accounts in a browser', () => {
  it('signs up, validates the mailed code, creates the agent profile, chooses Solo and reaches the dashboard', async () => {
    const email = freshEmail()
    const password = 'porch-light-42'

    await page.goto(`${t.url}/signup`)
    await expect.poll(heading).toBe('Porchlight User Signup')
    const signUp = page.getByRole('button', { name: 'Sign Up' })
    await field('Email Id').fill(email)
    await field('Password').fill('short')
    expect(await page.getByText(messages.recommendedPasswordLength).isVisible()).toBe(true)
    await field('Password').fill(password)
    await field('Re-enter Password').fill(`${password}x`)
    expect(await page.getByText(messages.passwordNotMatching).isVisible()).toBe(true)
    await field('Re-enter Password').fill(password)
    await expectAccessible(page, 'sign-up, filled in', { alsoAtPhoneWidth: true })
    // Still disabled: the agreement is not checked yet.
    expect(await signUp.isDisabled()).toBe(true)
    await page.getByText('I have read and agree').click()
    await signUp.click()

    await arrive(/\/validateEmail\?porchlightUserId=\d+$/, 'Validate Email Id')
    const [mail] = await smtp.waitFor((m) => m.to.includes(email))
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? ''
    expect(code).toMatch(/^\d{6}$/)
    await expectAccessible(page, 'Validate Email Id', { alsoAtPhoneWidth: true })
    await field('Validation Code').fill(code)
    await page.getByRole('button', { name: 'Validate' }).click()

    await arrive(
      /\/signinsuccess\?porchlightUserId=\d+&source=emailvalid$/,
      messages.emailIdValidatedSuccessfully,
    )
    await expectAccessible(page, 'the email validated')
    await page.getByRole('link', { name: 'Create Real Estate Agent Profile' }).click()

    await arrive(/\/new\?porchlightUserId=\d+$/, 'Real Estate Agent Signup')
    const agentEmail = field('Email Id')
    expect(await agentEmail.inputValue()).toBe(email)
    expect(await agentEmail.getAttribute('readonly')).not.toBeNull()

    // Submitting empty shows the SPEC §5 required fields beside their inputs, and focuses the first.
    await page.getByRole('button', { name: 'Create Real Estate Agent Profile' }).click()
    expect(await page.getByText('First name is required').isVisible()).toBe(true)
    expect(await page.getByText('Role is required').isVisible()).toBe(true)
    expect(await page.getByText('Licensed state is required').isVisible()).toBe(true)
    expect(await field('First Name').evaluate((el) => el === document.activeElement)).toBe(true)
    await expectAccessible(page, 'Real Estate Agent Signup with its required fields', {
      alsoAtPhoneWidth: true,
    })

    await field('First Name').fill('Riley')
    await field('Last Name').fill('Stone')
    await choose('Role', 'Real Estate Agent')
    await field('Phone Number').fill('404 555 0199')
    await choose('Licensed State', 'Georgia')
    await field('License Number').fill('GA-778899')
    await field('Broker Firm Name').fill('Peachtree Realty')
    await field('Broker Firm License').fill('FIRM-001')
    await page.getByRole('spinbutton', { name: /month/i }).click()
    await page.keyboard.type('01151990')
    await field('Residence Zip Code').fill('30004')
    await page.getByRole('button', { name: 'Create Real Estate Agent Profile' }).click()

    await arrive(/\/pricingplans\?reAgentId=\d+$/, 'Pricing plans')
    const reAgentId = Number(new URL(page.url()).searchParams.get('reAgentId'))
    const token = await page.evaluate(() => localStorage.getItem('porchlightUserToken'))
    const saved = await t.call('GET', `/reagentmgmt/getREAgentDetails/${reAgentId}`, { token: token ?? '' })
    expect(saved.body.data).toMatchObject({
      reAgentFirstName: 'Riley',
      reAgentEmailId: email,
      reAgentLicensedState: 'Georgia',
      reAgentDateOfBirth: '1990-01-15',
      reAgentResidenceZipCode: '30004',
    })
    await expectAccessible(page, 'the pricing plans of a new agent', { alsoAtPhoneWidth: true })

    await page
      .getByRole('article', { name: 'Solo' })
      .getByRole('button', { name: /Choose plan/ })
      .click()
    const dialog = page.getByRole('alertdialog')
    expect(await dialog.textContent()).toContain(messages.confirmAddPricingPlan)
    await expectAccessible(page, 'the plan confirmation')
    await dialog.getByRole('button', { name: 'Yes' }).click()

    await arrive(`${t.url}/signin`, 'Sign In')
    await page.getByRole('status').filter({ hasText: 'Pricing Plan added successfully!' }).waitFor()
    // The session that chose the plan is ended: the header offers Sign In again.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('porchlightUserToken'))).toBeNull()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' }).waitFor()
    await expectAccessible(page, 'sign-in after the plan was added')

    await signInThroughForm(email, password)
    await arrive(`${t.url}/dashboard`, 'Dashboard')
    expect(await page.getByRole('link', { name: 'Welcome, Riley' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Schedule Open House' }).isVisible()).toBe(true)
    await expectAccessible(page, "a new agent's dashboard", { alsoAtPhoneWidth: true })
    // Every screen of sign-up checked with axe: longer than the default 30 s.
  }, 60_000)

  it('shows the SPEC text for a wrong password and keeps what was typed', async () => {
    const user = await makeAgentWithPlan()
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(user.email, 'not-the-password')
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toBe(messages.incorrectEmailAndPassword)
    expect(await field('Email Id').inputValue()).toBe(user.email)
    expect(page.url()).toBe(`${t.url}/signin`)
    await expectAccessible(page, 'sign-in refused', { alsoAtPhoneWidth: true })

    // The show/hide toggle reveals the password without losing it.
    await page.getByRole('button', { name: 'Show password' }).click()
    expect(await field('Password').getAttribute('type')).toBe('text')
    expect(await field('Password').inputValue()).toBe('not-the-password')
  })

  it('says what to do when password sign-in is paused, and a mailed temporary password gets the owner in', async () => {
    const user = await makeAgentWithPlan()
    // Someone guessed: the account's password door is paused (10 wrong passwords in 15 minutes).
    for (let i = 0; i < 10; i++) {
      const guess = await t.call('POST', '/signing/authenticate', {
        body: { porchlightUserEmailId: user.email, porchlightUserPass: `guess-${i}` },
      })
      expect(guess.status).toBe(401)
    }
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(user.email, user.password)
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Sign-in with a password is paused')
    expect(await alert.textContent()).toContain(messages.signInPaused)
    await expectAccessible(page, 'password sign-in paused', { alsoAtPhoneWidth: true })

    await alert.getByRole('button', { name: 'Email me a temporary password' }).click()
    await arrive(`${t.url}/forgotPassword`, 'Forgot Password?')
    expect(await field('Email Id').inputValue()).toBe(user.email)
    await page.getByRole('button', { name: 'Reset My Password' }).click()
    await page.waitForURL(/\/forgotPassword\/confirm$/)
    const [mail] = await smtp.waitFor(
      (m) => m.to.includes(user.email) && /temporary password/i.test(m.subject),
    )
    const temp = /\n\n([A-Za-z0-9]{12})\n\n/.exec(mail?.text ?? '')?.[1] ?? ''
    expect(temp).toHaveLength(12)

    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(user.email, temp)
    await page.waitForURL(/\/mystuff\/changeUserPass$/)
  }, 60_000)

  it('sends an unvalidated account to /validateEmail and one without a profile to /signinsuccess', async () => {
    const email = freshEmail()
    const password = 'porch-light-42'
    const signup = await t.call('POST', '/signing/savePorchlightUser', {
      body: {
        porchlightUserEmailId: email,
        porchlightUserPass: password,
        porchlightUserPassVerify: password,
      },
    })
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(email, password)
    await arrive(`${t.url}/validateEmail?porchlightUserId=${signup.body.data.id}`, 'Validate Email Id')
    await page.getByText(`emailed to ${email}`).waitFor()
    await expectAccessible(page, 'Validate Email Id after sign-in')

    const validated = await makeValidatedUser(t, freshEmail())
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(validated.email, validated.password)
    await arrive(
      `${t.url}/signinsuccess?porchlightUserId=${validated.userId}&source=signin`,
      messages.signedInSuccessfully,
    )
    await page.getByText('Your real estate agent profile is not created yet.').waitFor()
    await expectAccessible(page, 'signed in without a profile', { alsoAtPhoneWidth: true })
  })

  it('sends a signed-in agent whose session ended to /signin?session=expired', async () => {
    const user = await makeAgentWithPlan()
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(user.email, user.password)
    await arrive(`${t.url}/dashboard`, 'Dashboard')
    expect(await page.getByRole('link', { name: 'Welcome, Jordan' }).isVisible()).toBe(true)

    await t.db.deleteFrom('session').execute()
    await page.goto(`${t.url}/mystuff`)
    await arrive(/\/signin\?session=expired/, 'Sign In')
    await page.getByText(messages.sessionExpired).waitFor()
    await expectAccessible(page, 'sign-in after the session expired', { alsoAtPhoneWidth: true })
    expect(await page.evaluate(() => localStorage.getItem('porchlightUserToken'))).toBeNull()
    expect(await page.getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true)
    // Signing in again goes on to the page that was asked for.
    await signInThroughForm(user.email, user.password)
    await arrive(`${t.url}/mystuff`, 'My Stuff')
  })

  it('takes a signed-out agent from a mail link through sign-in to that page, and nowhere off the site', async () => {
    const user = await makeAgentWithPlan()
    await page.goto(`${t.url}/openhouses?activeSection=searchOH`)
    await arrive(/\/signin\?redirect=/, 'Sign In')
    await signInThroughForm(user.email, user.password)
    await page.waitForURL(`${t.url}/openhouses?activeSection=searchOH`)

    await context.clearCookies()
    await page.evaluate(() => localStorage.clear())
    await page.goto(`${t.url}/signin?redirect=${encodeURIComponent('//evil.example/steal')}`)
    await expect.poll(heading).toBe('Sign In')
    await signInThroughForm(user.email, user.password)
    await arrive(`${t.url}/dashboard`, 'Dashboard')
  })

  it('resets a forgotten password by mail, then makes the agent choose a new one', async () => {
    const user = await makeAgentWithPlan()
    await page.goto(`${t.url}/signin`)
    await expect.poll(heading).toBe('Sign In')
    await page.getByRole('link', { name: 'Forgot Password?' }).click()
    await arrive(`${t.url}/forgotPassword`, 'Forgot Password?')
    await expectAccessible(page, 'Forgot Password?', { alsoAtPhoneWidth: true })
    await field('Email Id').fill(user.email)
    await page.getByRole('button', { name: 'Reset My Password' }).click()
    await arrive(`${t.url}/forgotPassword/confirm`, 'Check your email')
    await page.getByText(/new temporary password will be emailed/).waitFor()
    await expectAccessible(page, 'the password reset sent')

    const [mail] = await smtp.waitFor(
      (m) => m.to.includes(user.email) && /temporary password/i.test(m.subject),
    )
    const temporary = mail?.text.split(/\n\s*\n/)[1]?.trim() ?? ''
    expect(temporary.length).toBeGreaterThan(0)

    await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click()
    await arrive(`${t.url}/signin`, 'Sign In')
    await signInThroughForm(user.email, temporary)

    await arrive(`${t.url}/mystuff/changeUserPass`, 'User Password Change')
    await expectAccessible(page, 'User Password Change after a temporary password', {
      alsoAtPhoneWidth: true,
    })
    const newPassword = 'brand-new-porch-99'
    await field('New Password').fill(newPassword)
    await field('Re-enter New Password').fill(newPassword)
    await page.getByRole('button', { name: 'Change' }).click()

    await page.waitForURL(`${t.url}/mystuff/changeUserPass/confirmPassChange`)
    await page.getByText(messages.passwordChangedSuccessfully).waitFor()
    await expectAccessible(page, 'the password changed')
    await page.getByRole('link', { name: 'My Profile' }).click()
    await arrive(`${t.url}/mystuff`, 'My Stuff')
    await page.getByRole('tab', { name: 'My Real Estate Profile', selected: true }).waitFor()
    await expectAccessible(page, 'My Stuff, the profile', { alsoAtPhoneWidth: true })

    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: user.email, porchlightUserPass: newPassword },
    })
    expect(signIn.status).toBe(200)
    expect(signIn.body.data.mustChangePassword).toBe(false)
  })

  it('asks a signed-in agent for its current password before changing it', async () => {
    const user = await makeAgentWithPlan()
    await page.goto(`${t.url}/signin`)
    await signInThroughForm(user.email, user.password)
    await arrive(`${t.url}/dashboard`, 'Dashboard')
    await page.goto(`${t.url}/mystuff/changeUserPass`)
    await arrive(`${t.url}/mystuff/changeUserPass`, 'User Password Change')
    const newPassword = 'next-porch-pass-7'
    await field('Current Password').fill('not-my-password')
    await field('New Password').fill(newPassword)
    await field('Re-enter New Password').fill(newPassword)
    await page.getByRole('button', { name: 'Change' }).click()
    await page.getByText(messages.authenticatingUserDetailsFailed).waitFor()
    expect(page.url()).toBe(`${t.url}/mystuff/changeUserPass`)
    await expectAccessible(page, 'User Password Change refused')

    await field('Current Password').fill(user.password)
    await page.getByRole('button', { name: 'Change' }).click()
    await page.waitForURL(`${t.url}/mystuff/changeUserPass/confirmPassChange`)
    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: user.email, porchlightUserPass: newPassword },
    })
    expect(signIn.status).toBe(200)
  })

  it('changes the sign-in email with the current password and the code mailed to the new address', async () => {
    const user = await makeAgentWithPlan()
    const next = freshEmail()
    await useToken(user.token)
    await page.goto(`${t.url}/dashboard/userSettings`)
    await arrive(`${t.url}/dashboard/userSettings`, 'User Edit')
    await field('Email Id').fill(next)
    await field('Current Password').fill('not-my-password')
    await page.getByRole('button', { name: 'Update' }).click()
    await page.getByText(messages.authenticatingUserDetailsFailed).waitFor()
    // Nothing typed is lost.
    expect(await field('Email Id').inputValue()).toBe(next)
    await expectAccessible(page, 'User Edit, the password refused', { alsoAtPhoneWidth: true })

    await field('Current Password').fill(user.password)
    await page.getByRole('button', { name: 'Update' }).click()
    await page.getByRole('heading', { name: `Confirm ${next}` }).waitFor()
    await expectAccessible(page, 'User Edit, confirming a new email Id', { alsoAtPhoneWidth: true })
    // Long addresses wrap: nothing scrolls sideways on a phone.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 900 })
    const [mail] = await smtp.waitFor((m) => m.to.includes(next))
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? ''

    await field('Validation Code').fill(code === '000000' ? '111111' : '000000')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText(messages.validationCodeNotValid).waitFor()
    await expectAccessible(page, 'User Edit, the code refused')
    await field('Validation Code').fill(code)
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText('Your email Id was updated.').waitFor()
    expect(await page.getByText(`You sign in with ${next}.`).count()).toBe(1)
    await expectAccessible(page, 'User Edit, the email Id updated')
    await smtp.waitFor((m) => m.to.includes(user.email) && /email was changed/.test(m.subject))
    const signIn = await t.call('POST', '/signing/authenticate', {
      body: { porchlightUserEmailId: next, porchlightUserPass: user.password },
    })
    expect(signIn.status).toBe(200)
  })

  it('edits the agent profile with the license and broker fields read-only, and shows the plan tab', async () => {
    const user = await makeAgentWithPlan()
    await useToken(user.token)
    await page.goto(`${t.url}/mystuff`)
    await page.getByRole('tab', { name: 'My Real Estate Profile', selected: true }).waitFor()
    await page.getByRole('link', { name: 'Edit' }).click()

    await arrive(`${t.url}/mystuff/${user.agentId}/edit`, 'Real Estate Agent Details')
    for (const name of [
      'Licensed State',
      'License Number',
      'Broker Firm Name',
      'Broker Firm License',
      'Email Id',
    ]) {
      expect(await field(name).getAttribute('readonly'), name).not.toBeNull()
    }
    await expectAccessible(page, 'Real Estate Agent Details', { alsoAtPhoneWidth: true })
    await field('First Name').fill('Jordy')
    await page.getByRole('button', { name: 'Update' }).click()

    await arrive(`${t.url}/mystuff`, 'My Stuff')
    await page.getByRole('link', { name: 'Welcome, Jordy' }).waitFor()
    expect(await page.getByRole('heading', { name: /^Jordy / }).isVisible()).toBe(true)
    await expectAccessible(page, 'My Stuff after the profile update')

    await page.getByRole('tab', { name: 'My Pricing Plan' }).click()
    await page.waitForURL(`${t.url}/mystuff?activeSection=myPricingPlan`)
    const panel = page.getByRole('tabpanel')
    await panel.getByRole('heading', { name: 'Solo' }).waitFor()
    expect(await panel.textContent()).toContain('Monthly')
    expect(await panel.getByRole('link', { name: 'Change Pricing Plan' }).getAttribute('href')).toBe(
      `/pricingplans?reAgentId=${user.agentId}`,
    )
    await expectAccessible(page, 'My Pricing Plan', { alsoAtPhoneWidth: true })
  })

  it('shows the SPEC license text instead of Dashboard and My Stuff when the license is not valid', async () => {
    const { token } = await makeAgent(t.db, { licenseValid: false })
    await useToken(token)
    for (const path of ['/dashboard', '/mystuff']) {
      await page.goto(`${t.url}${path}`)
      await page.getByText(messages.licenseNotValid).waitFor()
      expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0)
      expect(await page.getByRole('tab').count()).toBe(0)
      await expectAccessible(page, `${path} with a license not valid`)
    }
  })
})
