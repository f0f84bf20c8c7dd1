import { createFileRoute } from '@tanstack/react-router'
import { FirmVerificationPage } from '../features/operator/firm-verification-page.tsx'

/** The operator's list of agents asking to be verified (its ADMIN_TOKEN is its authority, typed there). */
export const Route = createFileRoute('/admin/firm-verification')({
  component: FirmVerificationPage,
})
