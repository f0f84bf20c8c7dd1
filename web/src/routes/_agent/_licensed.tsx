import { messages } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { ApiError } from '../../api/client.ts'
import { RouteError } from '../../app/route-error.tsx'

/**
 * Pathless layout of the license gate (SPEC §1, §6): an agent whose license is not valid sees the
 * SPEC text instead of Dashboard or My Stuff. A load answering 403 LICENSE_INVALID shows the same
 * through RouteError.
 */
export const Route = createFileRoute('/_agent/_licensed')({
  beforeLoad: ({ context }) => {
    const { agent } = context.session
    if (agent && !agent.reAgentLicenseValidityFlag) {
      throw new ApiError(403, 'LICENSE_INVALID', messages.licenseNotValid)
    }
  },
  errorComponent: RouteError,
})
