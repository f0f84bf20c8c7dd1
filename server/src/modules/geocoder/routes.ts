import { AddressSuggestion } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { createGeocoder } from './service.ts'

/** Address autocomplete through the configured provider; without one the form is filled by hand. */
export const geocoderRoutes: FastifyPluginAsyncZod = async (app) => {
  const geocoder = createGeocoder(app.deps.config.geocoderUrl)
  app.get(
    '/geocoder/search',
    {
      schema: {
        tags: ['properties'],
        security: [{ bearer: [] }],
        querystring: z.object({ q: z.string().trim().min(3).max(200) }),
        response: { 200: z.object({ data: z.array(AddressSuggestion), configured: z.boolean() }) },
      },
      preHandler: app.requireAgent,
    },
    async (req) => ({ data: await geocoder.search(req.query.q), configured: geocoder.configured }),
  )
}
