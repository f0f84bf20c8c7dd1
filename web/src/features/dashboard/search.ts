import { Id } from '@porchlight/shared'
import { z } from 'zod'

/** /dashboard?invitation={reTeamId}: the link in a team invitation mail points at that invitation. */
export const DashboardSearch = z.object({
  invitation: Id.optional().catch(undefined),
})
