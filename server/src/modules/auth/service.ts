import {
  type AuthenticateBody,
  type ChangePasswordBody,
  messages,
  type SessionInfo,
  type SignInResult,
  type SignupBody,
  type UpdateUserBody,
  type User,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { Db } from '../../db/database.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { inTransaction } from '../../db/transaction.ts'
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../../errors.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { toAgent } from '../agents/payload.ts'
import type { AgentService } from '../agents/service.ts'
import type { PricingService } from '../pricing/service.ts'
import { type AccountLimits, SIGN_IN_FAILURES_NOTICE } from './limits.ts'
import {
  generateCode,
  generateTemporaryPassword,
  hashPassword,
  hashSecret,
  sameHash,
  verifyPassword,
} from './passwords.ts'
import type { AuthRepo, UserRow } from './repo.ts'
import type { SessionService } from './sessions.ts'

const CODE_TTL_MS = 15 * 60 * 1000
const CODE_ATTEMPTS = 5
const TEMP_PASSWORD_TTL_MS = 60 * 60 * 1000

export interface AuthDeps {
  db: Db
  repo: AuthRepo
  sessions: SessionService
  agents: AgentService
  pricing: PricingService
  outbox: Outbox
  limits: AccountLimits
  /** Read when a mail is written: PUBLIC_URL may be settled after start (port 0). */
  config: { publicUrl: string }
}

/** `pendingEmailId` where the caller edits its own account (User Edit, the session), not at sign-up. */
const toUser = (u: UserRow, pendingEmailId?: string | null): User => ({
  id: u.id,
  porchlightUserEmailId: u.porchlightUserEmailId,
  userEnabled: u.userEnabled,
  ...(pendingEmailId === undefined ? {} : { pendingEmailId }),
})

export function createAuthService(d: AuthDeps) {
  async function signedIn(user: UserRow, mustChangePassword = false): Promise<SignInResult> {
    const { token, session } = await d.sessions.create(user.id, mustChangePassword)
    // A temporary password means the account was being recovered: whoever else is signed in, is not.
    if (mustChangePassword) await d.sessions.revokeAllOthers(user.id, session.id)
    const agent = await d.agents.findByUserId(user.id)
    return {
      porchlightUserDTO: {
        id: user.id,
        porchlightUserEmailId: user.porchlightUserEmailId,
        porchlightUserToken: token,
        userEnabled: true,
      },
      realEstateAgentDTO: agent ? toAgent(agent) : null,
      activePlan: agent ? await d.pricing.utilization(agent.id) : null,
      mustChangePassword,
    }
  }

  /**
   * A stolen session alone must not be enough to take the account over: a password or sign-in email
   * change names the current password, except in a session opened with a temporary password.
   */
  async function assertCurrentPassword(
    userId: number,
    session: { recovery: boolean },
    current: string | undefined,
  ): Promise<UserRow> {
    const user = await d.repo.findUserById(userId)
    if (!user) throw new NotFoundError()
    if (session.recovery) return user
    if (!current || !(await verifyPassword(user.porchlightUserPass, current)))
      throw new ValidationError([
        { field: 'currentPassword', message: messages.authenticatingUserDetailsFailed },
      ])
    return user
  }

  /** A live temporary password (resetPassword's mail) is used up by the sign-in that names it. */
  async function takeTemporaryPassword(user: UserRow, given: string): Promise<boolean> {
    const temp = (await d.repo.liveCodes(user.id, 'temp_password')).find((c) =>
      sameHash(c.codeHash, hashSecret(user.id, given)),
    )
    return temp !== undefined && (await d.repo.useCode(temp.id)) !== undefined
  }

  async function noticeFailures(user: UserRow): Promise<void> {
    await inTransaction(d.db, (trx) =>
      queueMail(
        trx,
        d.outbox,
        mailTemplates.signInFailures(user.porchlightUserEmailId, SIGN_IN_FAILURES_NOTICE, d.config.publicUrl),
      ),
    )
  }

  async function issueVerificationCode(user: UserRow, trx: Parameters<AuthRepo['issueCode']>[4]) {
    const code = generateCode()
    await d.repo.issueCode(user.id, 'verify_email', hashSecret(user.id, code), CODE_TTL_MS, trx)
    const validateUrl = `${d.config.publicUrl}/validateEmail?porchlightUserId=${user.id}`
    await queueMail(
      trx,
      d.outbox,
      mailTemplates.verificationCode(user.porchlightUserEmailId, code, validateUrl),
    )
  }

  return {
    async signup(body: z.output<typeof SignupBody>): Promise<User> {
      if (await d.repo.findUserByEmail(body.porchlightUserEmailId)) {
        throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
      }
      const passwordHash = await hashPassword(body.porchlightUserPass)
      try {
        const user = await inTransaction(d.db, async (trx) => {
          const created = await d.repo.createUser(body.porchlightUserEmailId, passwordHash, trx)
          await issueVerificationCode(created, trx)
          return created
        })
        return toUser(user)
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
        throw err
      }
    },

    async validateEmail(userId: number, code: string): Promise<SignInResult> {
      const invalid = () => new BadRequestError(messages.validationCodeNotValid, 'INVALID_CODE')
      const user = await d.repo.findUserById(userId)
      if (!user || user.userEnabled) throw invalid()
      const [live] = await d.repo.liveCodes(userId, 'verify_email')
      if (!live || !(await d.repo.takeAttempt(live.id, CODE_ATTEMPTS))) throw invalid()
      if (!sameHash(live.codeHash, hashSecret(userId, code))) throw invalid()
      const enabled = await inTransaction(d.db, async (trx) => {
        if (!(await d.repo.useCode(live.id, trx))) return false
        await d.repo.enableUser(userId, trx)
        return true
      })
      if (!enabled) throw invalid()
      return signedIn({ ...user, userEnabled: true })
    },

    /**
     * The same answer for every id — unknown, waiting or already validated — and the same limit, taken
     * before the id is looked up: the call tells nobody which user ids exist.
     */
    async resendCode(userId: number): Promise<void> {
      await d.limits.take('resend', `user:${userId}`)
      const user = await d.repo.findUserById(userId)
      if (!user || user.userEnabled) return
      await inTransaction(d.db, (trx) => issueVerificationCode(user, trx))
    },

    /**
     * `source`: the caller's address. Wrong passwords are counted per account (from anywhere) and per
     * account and address; past either limit the password door is paused (429, the same for an email
     * nobody has), and only the owner's mailed temporary password opens it (decision 032).
     */
    async authenticate(body: z.output<typeof AuthenticateBody>, source: string): Promise<SignInResult> {
      const email = body.porchlightUserEmailId
      const pausedFor = await d.limits.takeSignInTry(email, source)
      const user = await d.repo.findUserByEmail(email)
      if (!user && !pausedFor) throw new NotFoundError(messages.noAccountWithEmail, 'NO_ACCOUNT')
      let mustChangePassword = false
      const passwordOk =
        user && !pausedFor && (await verifyPassword(user.porchlightUserPass, body.porchlightUserPass))
      if (!passwordOk) {
        if (!user || !(await takeTemporaryPassword(user, body.porchlightUserPass))) {
          if (user && (await d.limits.signInRefused(email))) await noticeFailures(user)
          if (pausedFor) throw new RateLimitedError(messages.signInPaused, pausedFor)
          throw new UnauthorizedError(messages.incorrectEmailAndPassword)
        }
        mustChangePassword = true
      }
      if (!pausedFor) await d.limits.giveBackSignInTry(email, source)
      if (!user.userEnabled) {
        return {
          porchlightUserDTO: {
            id: user.id,
            porchlightUserEmailId: user.porchlightUserEmailId,
            porchlightUserToken: null,
            userEnabled: false,
          },
          realEstateAgentDTO: null,
          activePlan: null,
          mustChangePassword: false,
        }
      }
      return signedIn(user, mustChangePassword)
    },

    signout(sessionId: string): Promise<void> {
      return d.sessions.revoke(sessionId)
    },

    /** Always the same answer, so nobody learns whether an account exists. */
    async resetPassword(email: string): Promise<void> {
      await d.limits.take('reset', email)
      const user = await d.repo.findUserByEmail(email)
      if (!user) return
      const password = generateTemporaryPassword()
      await inTransaction(d.db, async (trx) => {
        await d.repo.issueCode(
          user.id,
          'temp_password',
          hashSecret(user.id, password),
          TEMP_PASSWORD_TTL_MS,
          trx,
        )
        await queueMail(
          trx,
          d.outbox,
          mailTemplates.temporaryPassword(
            user.porchlightUserEmailId,
            password,
            `${d.config.publicUrl}/signin`,
          ),
        )
      })
    },

    async changePassword(
      userId: number,
      session: { sessionId: string; recovery: boolean },
      body: z.output<typeof ChangePasswordBody>,
    ): Promise<void> {
      await assertCurrentPassword(userId, session, body.currentPassword)
      const sessionId = session.sessionId
      const passwordHash = await hashPassword(body.porchlightUserPass)
      await inTransaction(d.db, async (trx) => {
        await d.repo.setPassword(userId, passwordHash, trx)
        await d.repo.retireCodes(userId, 'temp_password', trx)
      })
      await d.sessions.revokeAllOthers(userId, sessionId)
      if (session.recovery) await d.sessions.endRecovery(sessionId)
    },

    /**
     * A new sign-in email is not taken on the session's word: it needs the current password, and takes
     * effect only once the code mailed to the new address is entered (`confirmEmailChange`). The same
     * address again drops a change that was waiting.
     */
    async updateUser(
      userId: number,
      session: { recovery: boolean },
      body: z.output<typeof UpdateUserBody>,
    ): Promise<User> {
      const user = await assertCurrentPassword(userId, session, body.currentPassword)
      const email = body.porchlightUserEmailId
      if (email === user.porchlightUserEmailId) {
        await inTransaction(d.db, (trx) => d.repo.retireCodes(userId, 'change_email', trx))
        return toUser(user, null)
      }
      const other = await d.repo.findUserByEmail(email)
      if (other && other.id !== userId) throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
      await d.limits.take('email-change', `user:${userId}`)
      const code = generateCode()
      await inTransaction(d.db, async (trx) => {
        await d.repo.issueCode(userId, 'change_email', hashSecret(userId, code), CODE_TTL_MS, trx, email)
        await queueMail(
          trx,
          d.outbox,
          mailTemplates.emailChangeCode(email, code, `${d.config.publicUrl}/dashboard/userSettings`),
        )
      })
      return toUser(user, email)
    },

    /** The code mailed to the new address: the change takes effect and the old address is told. */
    async confirmEmailChange(userId: number, code: string): Promise<User> {
      const invalid = () => new BadRequestError(messages.validationCodeNotValid, 'INVALID_CODE')
      const [live] = await d.repo.liveCodes(userId, 'change_email')
      if (!live?.newEmail || !(await d.repo.takeAttempt(live.id, CODE_ATTEMPTS))) throw invalid()
      if (!sameHash(live.codeHash, hashSecret(userId, code))) throw invalid()
      const newEmail = live.newEmail
      try {
        return await inTransaction(d.db, async (trx) => {
          if (!(await d.repo.useCode(live.id, trx))) throw invalid()
          const before = await d.repo.findUserById(userId, trx)
          if (!before) throw new NotFoundError()
          const other = await d.repo.findUserByEmail(newEmail, trx)
          if (other && other.id !== userId)
            throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
          const updated = await d.repo.setEmail(userId, newEmail, trx)
          await queueMail(trx, d.outbox, mailTemplates.emailChanged(before.porchlightUserEmailId, newEmail))
          return toUser(updated, null)
        })
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('EMAIL_EXISTS', messages.emailIdAlreadyExists)
        throw err
      }
    },

    async sessionInfo(userId: number, recovery: boolean): Promise<SessionInfo> {
      const user = await d.repo.findUserById(userId)
      if (!user) throw new NotFoundError()
      const agent = await d.agents.findByUserId(userId)
      const [pending] = await d.repo.liveCodes(userId, 'change_email')
      return {
        user: toUser(user, pending?.newEmail ?? null),
        recoverySession: recovery,
        agent: agent ? toAgent(agent) : null,
        activePlan: agent ? await d.pricing.utilization(agent.id) : null,
      }
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
