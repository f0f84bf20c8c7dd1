import { createFileRoute } from '@tanstack/react-router'
import { ForgotPasswordPage } from '../../features/account/forgot-password-page.tsx'

export const Route = createFileRoute('/forgotPassword/')({
  component: ForgotPasswordPage,
})
