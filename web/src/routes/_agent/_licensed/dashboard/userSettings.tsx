import { createFileRoute } from '@tanstack/react-router'
import { UserSettingsPage } from '../../../../features/account/user-settings-page.tsx'

export const Route = createFileRoute('/_agent/_licensed/dashboard/userSettings')({
  component: UserSettingsPage,
})
