import { Id } from '@porchlight/shared'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { AgentSignupPage } from '../../../../features/agents/agent-signup-page.tsx'

/** SPEC 'Real Estate Agent Signup' under /mystuff; the same screen as /new. */
export const Route = createFileRoute('/_agent/_licensed/mystuff/new')({
  validateSearch: z.object({ porchlightUserId: Id.optional().catch(undefined) }),
  beforeLoad: ({ context }) => {
    if (context.session.agent) throw redirect({ to: '/mystuff' })
  },
  component: AgentSignupPage,
})
