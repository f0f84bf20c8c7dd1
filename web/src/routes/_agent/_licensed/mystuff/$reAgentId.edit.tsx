import { Id } from '@porchlight/shared'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { AgentEditPage } from '../../../../features/agents/agent-edit-page.tsx'
import { agentQueryOptions } from '../../../../features/agents/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'

export const Route = createFileRoute('/_agent/_licensed/mystuff/$reAgentId/edit')({
  params: {
    parse: ({ reAgentId }) => ({ reAgentId: Id.parse(reAgentId) }),
    stringify: ({ reAgentId }) => ({ reAgentId: String(reAgentId) }),
  },
  beforeLoad: ({ context, params }) => {
    // An agent edits only their own profile (API.md: self).
    if (requireAgent(context.session).id !== params.reAgentId) throw redirect({ to: '/mystuff' })
  },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(agentQueryOptions(params.reAgentId)),
  component: AgentEditPage,
})
