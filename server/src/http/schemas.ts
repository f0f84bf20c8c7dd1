import { z } from 'zod'

// The pieces every route's schema is made of (API.md), in one place.

/** The answer's envelope: `{ "data": … }`. */
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema })

/** The OpenAPI security of a route behind a session: its bearer token. */
export const security = [{ bearer: [] }]

/** An id in a path: a positive whole number. */
export const PositiveId = z.coerce.number().int().positive()

export const IdParams = z.object({ id: PositiveId })

/** "Your own id" routes (`requireSelf('agentId', …)`). */
export const AgentParams = z.object({ agentId: PositiveId })

/** A page of a list. */
export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})
