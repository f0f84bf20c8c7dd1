import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { PlanExpiredPage } from '../features/pricing/plan-expired-page.tsx'

export const Route = createFileRoute('/pricingplanexpired')({
  validateSearch: z.object({
    reAgentId: Id.optional().catch(undefined),
    source: z.string().optional().catch(undefined),
  }),
  component: PlanExpiredPage,
})
