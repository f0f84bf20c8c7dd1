import { createFileRoute } from '@tanstack/react-router'
import { ForgotPasswordConfirmPage } from '../../features/account/forgot-password-confirm-page.tsx'

export const Route = createFileRoute('/forgotPassword/confirm')({
  component: ForgotPasswordConfirmPage,
})
