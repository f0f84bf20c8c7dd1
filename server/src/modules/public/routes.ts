import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** What the browser needs of the server's settings: only public values. */
export const publicConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/appConfig',
    {
      schema: {
        tags: ['public'],
        response: { 200: z.object({ data: z.object({ mapStyleUrl: z.string().nullable() }) }) },
      },
    },
    async () => ({ data: { mapStyleUrl: app.deps.config.mapStyleUrl ?? null } }),
  )
}
