import { createFileRoute } from '@tanstack/react-router'
import { ChangePasswordPage } from '../../../../../features/account/change-password-page.tsx'

export const Route = createFileRoute('/_agent/_licensed/mystuff/changeUserPass/')({
  component: ChangePasswordPage,
})
