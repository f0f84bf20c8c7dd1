import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ValidateEmailPage } from '../features/account/validate-email-page.tsx'

export const Route = createFileRoute('/validateEmail')({
  validateSearch: z.object({ porchlightUserId: Id.optional().catch(undefined) }),
  component: ValidateEmailPage,
})
