import { Id } from '@porchlight/shared'
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { SigninSuccessPage } from '../features/account/signin-success-page.tsx'

export const Route = createFileRoute('/signinsuccess')({
  validateSearch: z.object({
    porchlightUserId: Id.optional().catch(undefined),
    source: z.enum(['signin', 'emailvalid']).optional().catch(undefined),
  }),
  component: SigninSuccessPage,
})
