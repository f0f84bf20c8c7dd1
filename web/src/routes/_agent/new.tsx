import { Id } from '@porchlight/shared'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { AgentSignupPage } from '../../features/agents/agent-signup-page.tsx'

/** SPEC /new: agent signup for a signed-in user without a profile (also at /mystuff/new). */
export const Route = createFileRoute('/_agent/new')({
  validateSearch: z.object({ porchlightUserId: Id.optional().catch(undefined) }),
  beforeLoad: ({ context }) => {
    if (context.session.agent) throw redirect({ to: '/mystuff' })
  },
  component: AgentSignupPage,
})
