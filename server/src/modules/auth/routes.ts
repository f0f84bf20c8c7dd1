import {
  AuthenticateBody,
  ChangePasswordBody,
  ConfirmEmailChangeBody,
  ResetPasswordBody,
  SessionInfo,
  SignInResult,
  SignupBody,
  UpdateUserBody,
  User,
  ValidationCode,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { userOf } from '../../http/auth.ts'
import { data, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const Sent = data(z.object({ sent: z.literal(true) }))
const UserIdParams = z.object({ userId: z.coerce.number().int().positive() })

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, config } = app.deps
  /** Calls that mail an account: per client address an hour (each account has its own limit too). */
  const mailsPerAddress = {
    rateLimit: { max: config.rateLimit.accountMailsPerHour, timeWindow: 3_600_000 },
  }

  app.post(
    '/signing/savePorchlightUser',
    {
      schema: { tags: ['auth'], body: SignupBody, response: { 201: data(User) } },
      config: mailsPerAddress,
    },
    async (req, reply) => reply.status(201).send({ data: await auth.signup(req.body) }),
  )

  app.get(
    '/signing/validateEmailId/:userId/:code',
    {
      schema: {
        tags: ['auth'],
        params: UserIdParams.extend({ code: ValidationCode }),
        response: { 200: data(SignInResult) },
      },
    },
    async (req) => ({ data: await auth.validateEmail(req.params.userId, req.params.code) }),
  )

  app.get(
    '/signing/resendVerificationCode/:userId',
    { schema: { tags: ['auth'], params: UserIdParams, response: { 200: Sent } }, config: mailsPerAddress },
    async (req) => {
      await auth.resendCode(req.params.userId)
      return { data: { sent: true as const } }
    },
  )

  app.post(
    '/signing/authenticate',
    {
      schema: { tags: ['auth'], body: AuthenticateBody, response: { 200: data(SignInResult) } },
      config: { rateLimit: { max: config.rateLimit.signInPerMinute, timeWindow: 60_000 } },
    },
    async (req) => ({ data: await auth.authenticate(req.body, req.ip) }),
  )

  app.post(
    '/signing/signout',
    {
      schema: { tags: ['auth'], security, response: { 200: data(z.object({ signedOut: z.literal(true) })) } },
      preHandler: app.requireUser,
    },
    async (req) => {
      await auth.signout(userOf(req).sessionId)
      return { data: { signedOut: true as const } }
    },
  )

  app.post(
    '/signing/resetUserPassword',
    { schema: { tags: ['auth'], body: ResetPasswordBody, response: { 200: Sent } }, config: mailsPerAddress },
    async (req) => {
      await auth.resetPassword(req.body.porchlightUserEmailId)
      return { data: { sent: true as const } }
    },
  )

  app.patch(
    '/signing/changeUserPassword',
    {
      schema: {
        tags: ['auth'],
        security,
        body: ChangePasswordBody,
        response: { 200: data(z.object({ changed: z.literal(true) })) },
      },
      preHandler: [
        app.requireUser,
        requireSelf('id', 'You can only change your own password', { in: 'body', of: 'user' }),
      ],
    },
    async (req) => {
      await auth.changePassword(userOf(req).id, userOf(req), req.body)
      return { data: { changed: true as const } }
    },
  )

  app.patch(
    '/signing/user/:id',
    {
      schema: {
        tags: ['auth'],
        security,
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: UpdateUserBody,
        response: { 200: data(User) },
      },
      preHandler: [app.requireUser, requireSelf('id', 'You can only edit your own account', { of: 'user' })],
    },
    async (req) => ({ data: await auth.updateUser(userOf(req).id, userOf(req), req.body) }),
  )

  app.post(
    '/signing/confirmEmailChange',
    {
      schema: {
        tags: ['auth'],
        security,
        body: ConfirmEmailChangeBody,
        response: { 200: data(User) },
      },
      preHandler: app.requireUser,
    },
    async (req) => ({ data: await auth.confirmEmailChange(userOf(req).id, req.body.code) }),
  )

  app.get(
    '/signing/session',
    {
      schema: { tags: ['auth'], security, response: { 200: data(SessionInfo) } },
      preHandler: app.requireUser,
    },
    async (req) => ({ data: await auth.sessionInfo(userOf(req).id, userOf(req).recovery) }),
  )
}
