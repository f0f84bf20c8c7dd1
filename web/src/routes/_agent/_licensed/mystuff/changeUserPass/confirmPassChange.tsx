import { createFileRoute } from '@tanstack/react-router'
import { ChangePasswordConfirmPage } from '../../../../../features/account/change-password-confirm-page.tsx'

export const Route = createFileRoute('/_agent/_licensed/mystuff/changeUserPass/confirmPassChange')({
  component: ChangePasswordConfirmPage,
})
