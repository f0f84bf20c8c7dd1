import {
  CreateSellerReportLinkBody,
  SellerReport,
  SellerReportLink,
  SellerReportLinkStatus,
  SetSellerReportEmailBody,
} from '@porchlight/shared/schemas/seller-report'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { readFormBodies } from '../../http/form-body.ts'
import { data, security } from '../../http/schemas.ts'
import { answerUnsubscribePage, unsubscribePage } from '../consent/page.ts'
import { OneClickBody } from '../consent/routes.ts'

const OpenHouseParams = z.object({ openHouseId: z.coerce.number().int().positive() })
const tags = ['seller report']

/** The seller's private report link (issue 14): made and revoked by the listing side, read by its token. */
export const sellerReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sellerReports } = app.deps

  app.post(
    '/openhousemgmt/createSellerReportLink/:openHouseId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseParams,
        body: CreateSellerReportLinkBody,
        response: { 201: data(SellerReportLink) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req, reply) =>
      reply.status(201).send({
        data: await sellerReports.create(
          agentOf(req),
          req.params.openHouseId,
          req.body?.expiresInDays ?? 7,
          req.body?.sellerEmail ?? null,
        ),
      }),
  )

  // The seller kept informed (decision 051): its address on the newest working link, or null to remove it.
  app.post(
    '/openhousemgmt/setSellerReportEmail/:openHouseId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseParams,
        body: SetSellerReportEmailBody,
        response: { 200: data(SellerReportLinkStatus) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({
      data: await sellerReports.setSellerEmail(agentOf(req), req.params.openHouseId, req.body.sellerEmail),
    }),
  )

  app.delete(
    '/openhousemgmt/revokeSellerReportLink/:openHouseId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseParams,
        response: { 200: data(z.object({ revoked: z.number().int() })) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({ data: await sellerReports.revoke(agentOf(req), req.params.openHouseId) }),
  )

  app.get(
    '/openhousemgmt/getSellerReportLink/:openHouseId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseParams,
        response: { 200: data(SellerReportLinkStatus) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({ data: await sellerReports.status(agentOf(req), req.params.openHouseId) }),
  )

  app.get(
    '/public/getSellerReport/:token',
    {
      schema: {
        tags: ['public'],
        params: z.object({ token: z.string().max(200) }),
        response: { 200: data(SellerReport) },
      },
    },
    async (req, reply) => {
      // A private page: no shared cache keeps it, no search engine lists it.
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex')
      return { data: await sellerReports.report(req.params.token) }
    },
  )

  // The seller's one-click unsubscribe (RFC 8058), as the guest's (docs/consent.md): a GET only asks to
  // confirm; a POST of `List-Unsubscribe=One-Click`, urlencoded or multipart, stops mail for the link.
  const unsubscribeRoutes: FastifyPluginAsyncZod = async (forms) => {
    readFormBodies(forms)
    const TokenParams = z.object({ token: z.string().min(16).max(100) })

    forms.get(
      '/public/unsubscribeSeller/:token',
      { schema: { tags: ['public'], params: TokenParams } },
      async (req, reply) => {
        const known = await sellerReports.sellerUnsubscribeKnown(req.params.token)
        return answerUnsubscribePage(req, reply, known, 'seller')
      },
    )

    forms.post(
      '/public/unsubscribeSeller/:token',
      { schema: { tags: ['public'], params: TokenParams, body: OneClickBody } },
      async (req, reply) => {
        await sellerReports.unsubscribeSeller(req.params.token)
        reply.header('cache-control', 'no-store')
        if (req.body.from === 'page')
          return reply.type('text/html; charset=utf-8').send(unsubscribePage('done', 'seller'))
        return reply.status(200).send()
      },
    )
  }
  await app.register(unsubscribeRoutes)
}
