import { createFileRoute } from '@tanstack/react-router'
import { AgentLayout } from '../app/agent-layout.tsx'
import { requireSession } from '../features/session/queries.ts'

/** Pathless layout: every page under it needs a signed-in user (SPEC §6). */
export const Route = createFileRoute('/_agent')({
  beforeLoad: async ({ context, location }) => ({
    session: await requireSession(context.queryClient, location.href),
  }),
  component: AgentLayout,
})
