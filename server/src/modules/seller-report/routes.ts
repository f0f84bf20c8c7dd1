import {
  CreateSellerReportLinkBody,
  SellerReport,
  SellerReportLink,
  SellerReportLinkStatus,
} from '@porchlight/shared/schemas/seller-report'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, security } from '../../http/schemas.ts'

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
        data: await sellerReports.create(agentOf(req), req.params.openHouseId, req.body?.expiresInDays ?? 7),
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
}
