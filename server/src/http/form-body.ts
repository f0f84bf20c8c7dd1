import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BadRequestError } from '../errors.ts'

/**
 * A mail client's one-click unsubscribe POST is a form post (RFC 8058), urlencoded or multipart/form-data
 * (the RFC's own example): read such bodies in the calling plugin, for its routes only. Multipart is read
 * by Node's own fetch (undici's FormData parser); a file part is not a form field and is left out.
 */
export function readFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: 4096 },
    async (req: FastifyRequest, body: Buffer) => {
      const contentType = req.headers['content-type'] ?? ''
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } })
        .formData()
        .catch(() => {
          throw new BadRequestError('This form could not be read')
        })
      return Object.fromEntries([...form].filter((field) => typeof field[1] === 'string'))
    },
  )
}
