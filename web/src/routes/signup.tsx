import { createFileRoute } from '@tanstack/react-router'
import { SignupPage } from '../features/account/signup-page.tsx'

export const Route = createFileRoute('/signup')({
  component: SignupPage,
})
